package main

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
)

// choose picks a random legal press: who presses which button. It returns
// false when there is nothing to press (a drained table) or the message
// does not say who may act.
func (c *chat) choose(v *tableView, draining bool) (int, button, bool) {
	r := c.rng
	switch v.phase {
	case phaseLobby:
		if draining {
			return 0, button{}, false
		}
		seated := map[int]bool{}
		for _, name := range v.seated {
			if i, ok := c.index[name]; ok {
				seated[i] = true
			}
		}
		var in, out []int
		for i := range c.users {
			if seated[i] {
				in = append(in, i)
			} else {
				out = append(out, i)
			}
		}
		if len(in) > 0 && r.IntN(50) == 0 {
			if b, ok := v.find(callback.Leave); ok {
				return in[r.IntN(len(in))], b, true
			}
		}
		if who, b, ok := c.chooseHouse(v, in); ok {
			return who, b, true
		}
		if len(out) > 0 && len(v.seated) < len(c.users) && (len(v.seated) < 2 || r.IntN(2) == 0) {
			if b, ok := v.find(callback.Join); ok {
				return out[r.IntN(len(out))], b, true
			}
		}
		if b, ok := v.find(callback.Start); ok && len(in) > 0 && len(v.seated) >= 2 {
			return in[r.IntN(len(in))], b, true
		}
	case phaseBetting, phaseDrawing, phaseCutting:
		i, ok := c.index[v.turn]
		if !ok {
			return 0, button{}, false
		}
		return i, v.buttons[r.IntN(len(v.buttons))], true
	case phaseClosed:
		if draining {
			return 0, button{}, false
		}
		if b, ok := v.find(callback.NewTable); ok {
			return r.IntN(len(c.users)), b, true
		}
	case phaseOpen:
		// An inline table no one opened yet: its poster opens it.
		if b, ok := v.find(callback.InlineOpen); ok && !draining {
			return 0, b, true
		}
	}
	return 0, button{}, false
}

// houseEvery: the players of every houseEvery-th chat seat the house.
const houseEvery = 4

// chooseHouse picks, at a chat whose players seat the house, a seated
// player (of in) to seat the house when the lobby offers it, most of the
// time, or now and then to unseat it.
func (c *chat) chooseHouse(v *tableView, in []int) (int, button, bool) {
	if !c.house || len(in) == 0 {
		return 0, button{}, false
	}
	who := in[c.rng.IntN(len(in))]
	if b, ok := v.find(callback.SeatHouse); ok && c.rng.IntN(3) > 0 {
		return who, b, true
	}
	if b, ok := v.find(callback.UnseatHouse); ok && c.rng.IntN(30) == 0 {
		return who, b, true
	}
	return 0, button{}, false
}
