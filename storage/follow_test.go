package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// follows returns the chats the user follows, with their titles.
func follows(t *testing.T, s *Store, u game.UserID) map[int64]string {
	t.Helper()
	fs, err := s.Follows(ctx, u)
	require.NoError(t, err)
	out := map[int64]string{}
	for _, f := range fs {
		out[f.Chat] = f.Title
	}
	return out
}

// TestToggleFollow: a user follows a group only once they have a private
// chat with the bot; each /notify toggles; the same update delivered again
// toggles nothing and reports the state the first one left.
func TestToggleFollow(t *testing.T) {
	s := newStore(t, Options{})
	before := fileBytes(t, s)
	_, err := s.ToggleFollow(ctx, group, alice, "Game night", 1, t0)
	require.ErrorIs(t, err, ErrNoPrivateChat)
	assert.Equal(t, before, fileBytes(t, s), "refused: nothing written")

	require.NoError(t, s.StartedPrivate(ctx, alice, t0))
	on, err := s.ToggleFollow(ctx, group, alice, "Game night", 2, t0)
	require.NoError(t, err)
	assert.True(t, on)
	assert.Equal(t, map[int64]string{group: "Game night"}, follows(t, s, alice.ID))

	on, err = s.ToggleFollow(ctx, group, alice, "Game night", 2, t0)
	require.ErrorIs(t, err, ErrDuplicate)
	assert.True(t, on, "the state the first delivery left")
	assert.Len(t, follows(t, s, alice.ID), 1)

	on, err = s.ToggleFollow(ctx, group, alice, "Game night", 3, t0)
	require.NoError(t, err)
	assert.False(t, on)
	assert.Empty(t, follows(t, s, alice.ID))
}

// TestMemberLeft: a member who leaves a group stops following it, and
// nobody else does; the leave's update delivered again changes nothing,
// not even a follow made since; a group storage keeps nothing of is not
// written to.
func TestMemberLeft(t *testing.T) {
	s := newStore(t, Options{})
	other := int64(-77)
	before := fileBytes(t, s)
	was, err := s.MemberLeft(ctx, other, alice.ID, 1, t0)
	require.NoError(t, err)
	assert.False(t, was)
	assert.Equal(t, before, fileBytes(t, s), "an unknown group: nothing written")

	for _, u := range []User{alice, bob} {
		require.NoError(t, s.StartedPrivate(ctx, u, t0))
		_, err := s.Follow(ctx, group, u, "Game night", t0)
		require.NoError(t, err)
	}
	_, err = s.Follow(ctx, other, alice, "Other", t0)
	require.NoError(t, err)

	was, err = s.MemberLeft(ctx, group, alice.ID, 10, t0)
	require.NoError(t, err)
	assert.True(t, was)
	assert.Equal(t, map[int64]string{other: "Other"}, follows(t, s, alice.ID), "the other group still followed")
	assert.Len(t, follows(t, s, bob.ID), 1, "Bob still follows the group")

	on, err := s.ToggleFollow(ctx, group, alice, "Game night", 11, t0) // back, and /notify again
	require.NoError(t, err)
	require.True(t, on)
	was, err = s.MemberLeft(ctx, group, alice.ID, 10, t0.Add(time.Minute))
	assert.ErrorIs(t, err, ErrDuplicate)
	assert.False(t, was)
	assert.Len(t, follows(t, s, alice.ID), 2, "the leave delivered again undoes no later follow")

	was, err = s.MemberLeft(ctx, group, carol.ID, 12, t0)
	require.NoError(t, err)
	assert.False(t, was, "Carol followed nothing")
}

// TestFollowAndUnfollow: following from a deep link records the private
// chat with it and is idempotent; Follows lists the oldest first;
// Unfollow stops one and says whether there was one.
func TestFollowAndUnfollow(t *testing.T) {
	s := newStore(t, Options{})
	already, err := s.Follow(ctx, group, bob, "Game night", t0)
	require.NoError(t, err)
	assert.False(t, already)
	already, err = s.Follow(ctx, group, bob, "Game night", t0)
	require.NoError(t, err)
	assert.True(t, already)
	_, err = s.Follow(ctx, supergroup, bob, "Casino", t0.Add(-time.Hour))
	require.NoError(t, err)

	fs, err := s.Follows(ctx, bob.ID)
	require.NoError(t, err)
	require.Len(t, fs, 2)
	assert.Equal(t, Follow{Chat: supergroup, Title: "Casino", Since: t0.Add(-time.Hour)}, fs[0])
	assert.Equal(t, Follow{Chat: group, Title: "Game night", Since: t0}, fs[1])

	on, err := s.ToggleFollow(ctx, group, bob, "", 7, t0)
	require.NoError(t, err, "the deep link recorded the private chat")
	assert.False(t, on)

	was, err := s.Unfollow(ctx, supergroup, bob.ID)
	require.NoError(t, err)
	assert.True(t, was)
	was, err = s.Unfollow(ctx, supergroup, bob.ID)
	require.NoError(t, err)
	assert.False(t, was)
	assert.Empty(t, follows(t, s, bob.ID))
}

// TestFollowsBounded: a user follows at most MaxFollows groups.
func TestFollowsBounded(t *testing.T) {
	s := newStore(t, Options{})
	for i := range MaxFollows {
		_, err := s.Follow(ctx, -int64(1+i), carol, "", t0)
		require.NoError(t, err)
	}
	_, err := s.Follow(ctx, group, carol, "", t0)
	assert.ErrorIs(t, err, ErrTooManyFollows)
	_, err = s.ToggleFollow(ctx, group, carol, "", 1, t0)
	assert.ErrorIs(t, err, ErrTooManyFollows)
	assert.Len(t, follows(t, s, carol.ID), MaxFollows)
	already, err := s.Follow(ctx, -1, carol, "", t0)
	require.NoError(t, err, "following one again is no new one")
	assert.True(t, already)
}

// TestStopPrivate: a user who blocked the bot follows nothing and has no
// private chat until they write to it again.
func TestStopPrivate(t *testing.T) {
	s := newStore(t, Options{})
	for _, chat := range []int64{group, supergroup} {
		_, err := s.Follow(ctx, chat, alice, "", t0)
		require.NoError(t, err)
	}
	_, err := s.Follow(ctx, group, bob, "", t0)
	require.NoError(t, err)
	n, err := s.StopPrivate(ctx, alice.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Empty(t, follows(t, s, alice.ID))
	_, err = s.ToggleFollow(ctx, group, alice, "", 1, t0)
	assert.ErrorIs(t, err, ErrNoPrivateChat)
	fw, err := s.Announce(ctx, group, 0, "", t0, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, []Follower{{User: bob.ID, Language: "en"}}, fw, "Bob still follows")

	before := fileBytes(t, s)
	n, err = s.StopPrivate(ctx, alice.ID)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, before, fileBytes(t, s), "nothing left to forget: nothing written")
}

// TestAnnounce: a table opened tells every follower but its opener, each
// at most once within the quiet time, in their own language, and keeps
// the group's newest title.
func TestAnnounce(t *testing.T) {
	s := newStore(t, Options{})
	for _, u := range []User{alice, bob, carol} {
		_, err := s.Follow(ctx, group, u, "Game night", t0)
		require.NoError(t, err)
	}
	const quiet = 10 * time.Minute
	got, err := s.Announce(ctx, group, alice.ID, "Game night!", t0, quiet)
	require.NoError(t, err)
	assert.Equal(t, []Follower{{User: bob.ID, Language: "en"}, {User: carol.ID, Language: "de"}}, got)
	assert.Equal(t, map[int64]string{group: "Game night!"}, follows(t, s, alice.ID), "the opener's title is refreshed too")

	got, err = s.Announce(ctx, group, bob.ID, "", t0.Add(quiet-time.Second), quiet)
	require.NoError(t, err)
	assert.Equal(t, []Follower{{User: alice.ID, Language: "ru"}}, got, "Bob and Carol were told within the quiet time")

	got, err = s.Announce(ctx, group, bob.ID, "", t0.Add(quiet), quiet)
	require.NoError(t, err)
	assert.Equal(t, []Follower{{User: carol.ID, Language: "de"}}, got)
	assert.Equal(t, map[int64]string{group: "Game night!"}, follows(t, s, carol.ID), "an empty title keeps the one known")

	got, err = s.Announce(ctx, supergroup, bob.ID, "", t0, quiet)
	require.NoError(t, err)
	assert.Empty(t, got, "nobody follows that one")
}

// TestMigrateChatMovesFollows: a group's followers follow the supergroup
// it became, also where nothing but following happened in it; one who
// followed both keeps one following.
func TestMigrateChatMovesFollows(t *testing.T) {
	s := newStore(t, Options{})
	_, err := s.Follow(ctx, group, alice, "Game night", t0)
	require.NoError(t, err)
	_, err = s.Follow(ctx, group, bob, "Game night", t0)
	require.NoError(t, err)
	_, err = s.Follow(ctx, supergroup, bob, "Game night", t0.Add(time.Minute))
	require.NoError(t, err)

	require.NoError(t, s.MigrateChat(ctx, group, supergroup))
	assert.Equal(t, map[int64]string{supergroup: "Game night"}, follows(t, s, alice.ID))
	fs, err := s.Follows(ctx, bob.ID)
	require.NoError(t, err)
	assert.Equal(t, []Follow{{Chat: supergroup, Title: "Game night", Since: t0.Add(time.Minute)}}, fs)

	got, err := s.Announce(ctx, group, 0, "", t0, time.Minute)
	require.NoError(t, err)
	assert.ElementsMatch(t, []Follower{{User: alice.ID, Language: "ru"}, {User: bob.ID, Language: "en"}}, got,
		"the old id reaches the supergroup's followers")
	on, err := s.ToggleFollow(ctx, supergroup, alice, "", 1, t0)
	require.NoError(t, err)
	assert.False(t, on, "Alice followed the supergroup")
}

// BenchmarkAnnounceAgainstApply alternates, with fsync, one Announce of a
// group of 500 followers that tells them all (the worst case: every record
// is rewritten) with one Apply of another chat, and reports what an
// announcement costs as a multiple of a command. Run with
//
//	go test -run '^$' -bench AnnounceAgainstApply -benchtime 200x ./storage/
func BenchmarkAnnounceAgainstApply(b *testing.B) {
	const followers = 500
	s, start := benchStore(b)
	for i := 1; i <= followers; i++ {
		if _, err := s.Follow(ctx, group, User{ID: game.UserID(1_000_000 + i), Language: "en"}, "Game night", t0); err != nil {
			b.Fatal(err)
		}
	}
	p := newBenchPlayer(s, -1)
	var announcing, applying time.Duration
	start()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		got, err := s.Announce(ctx, group, 0, "Game night", t0.Add(time.Duration(i)*time.Hour), time.Minute)
		if err != nil || len(got) != followers {
			b.Fatal(err, len(got))
		}
		announcing += time.Since(t)
		t = time.Now()
		p.step(b, int64(i+1))
		applying += time.Since(t)
	}
	b.StopTimer()
	b.ReportMetric(float64(announcing.Microseconds())/float64(b.N), "announce-us/op")
	b.ReportMetric(float64(applying.Microseconds())/float64(b.N), "apply-us/op")
	b.ReportMetric(float64(announcing)/float64(applying), "announce/apply")
}
