package award_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/game/award"
)

func TestSet(t *testing.T) {
	beyond := award.Achievement(len(award.All()) + 1)
	s := set(award.Veteran, award.FirstWin, award.Knock)
	assert.Equal(t, []award.Achievement{award.FirstWin, award.Knock, award.Veteran}, s.List())
	assert.Equal(t, 3, s.Len())
	assert.True(t, s.Has(award.Knock))
	assert.False(t, s.Has(award.Golden21))
	assert.False(t, s.Has(0))
	assert.False(t, s.Has(beyond))
	assert.True(t, s.Valid())
	assert.False(t, (s | 1).Valid(), "bit 0 names nothing")
	assert.False(t, (s | 1<<beyond).Valid())
	assert.Empty(t, award.Set(0).List())
}

func TestAchievementNames(t *testing.T) {
	all := award.All()
	assert.Len(t, all, 13)
	names := map[string]bool{}
	for i, a := range all {
		assert.Equal(t, award.Achievement(i+1), a, "numbered from 1, in order")
		assert.True(t, a.Valid())
		assert.NotEqual(t, "unknown", a.String())
		names[a.String()] = true
	}
	assert.Len(t, names, len(all), "every name is its own")
	tests := []struct {
		a    award.Achievement
		want string
	}{
		{award.FirstWin, "first_win"},
		{award.Veteran, "veteran"},
		{0, "unknown"},
		{award.Achievement(len(all) + 1), "unknown"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.a.String())
		assert.Equal(t, tt.want != "unknown", tt.a.Valid())
	}
}
