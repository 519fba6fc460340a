package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/twentyone-bot/twentyone/game"
)

// maxRecordInput bounds what verify reads from standard input.
const maxRecordInput = 64 << 10

// verify checks a deck's record, as /verify shows it (docs/FAIRNESS.md):
// it prints the deck's order and OK, or the order and what differs (exit
// 1), or why the record is not one (exit 2).
func (c *CLI) verify(_ context.Context, args []string) error {
	f := c.newFlags("verify", "verify RECORD | verify -",
		"Checks a deck's record, the line /verify shows: that the seed hashes back to the chain's\n"+
			"head, and that the cards dealt are the top of the deck derived from the seed and the cut\n"+
			"(ochko-cut-v1); or that the preimage hashes to the commitment (sha256-salt-v0). Prints\n"+
			"the deck's order and OK, or what differs and exits with 1; a line that is not a record\n"+
			"exits with 2. With -, the record is read from standard input.", false)
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	line := strings.Join(f.Args(), " ")
	switch {
	case f.NArg() == 0:
		fmt.Fprintln(f.Output(), "twentyone verify: the record is missing")
		f.Usage()
		return errUsage
	case line == "-":
		in := c.Stdin
		if in == nil {
			in = os.Stdin
		}
		b, err := io.ReadAll(io.LimitReader(in, maxRecordInput))
		if err != nil {
			return fmt.Errorf("reading the record: %w", err)
		}
		line = string(b)
	}
	r, err := game.ParseRecord(line)
	if err != nil {
		fmt.Fprintf(c.Stderr, "twentyone verify: not a record: %s\n", oneLine(err.Error()))
		return errUsage
	}
	order, err := r.Verify()
	if order != nil {
		fmt.Fprintf(c.Stdout, "order:      %s\n", codeList(order))
	}
	if cr, ok := r.(*game.CutRecord); ok {
		fmt.Fprintf(c.Stdout, "commitment: %s (the table showed its first 16 digits before the cut)\n", cr.Seed.Hash())
		cut := "not cut"
		if len(cr.Cut) > 0 {
			cut = strconv.Quote(string(cr.Cut))
		}
		fmt.Fprintf(c.Stdout, "cut:        %s\n", cut)
	}
	if err != nil {
		return fmt.Errorf("FAIL: %w", err)
	}
	fmt.Fprintln(c.Stdout, "OK")
	return nil
}

// codeList returns the cards' codes separated by spaces.
func codeList(cards []game.Card) string {
	s := make([]string, len(cards))
	for i, c := range cards {
		s[i] = c.Code()
	}
	return strings.Join(s, " ")
}
