package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// validateFile checks, without bbolt and without mmap, that the BoltDB file
// at f is well formed enough for bbolt to open and read without touching
// memory outside the file: both meta pages, the file's length against the
// high-water mark, the freelist, and every page reachable from the root,
// nested buckets included (page types, bounds, element offsets, key order,
// no page referenced twice). bbolt trusts the file and panics, or faults on
// an address past the end of its mapping, on damage these checks find.
//
// It returns nil for an empty file (bbolt initialises it), an error
// wrapping ErrCorrupt that names the problem otherwise.
func validateFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	v := &validator{f: f, size: size, seen: map[uint64]bool{}}
	if err := v.readMeta(); err != nil {
		return err
	}
	if err := v.checkFreelist(); err != nil {
		return err
	}
	if err := v.walk(v.meta.root, 0); err != nil {
		return err
	}
	return nil
}

// bbolt's on-disk format (unchanged from boltdb through bbolt 1.5; native
// byte order, which is little-endian on every platform we build for).
const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16
	elementSize      = 16
	bucketHeaderSize = 16
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	metaPageFlag     = 0x04
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	noFreelist       = ^uint64(0)
	metaChecksumAt   = 56 // offset of the checksum in the meta struct
	maxTreeDepth     = 64
)

var le = binary.LittleEndian

type boltMeta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	hwm      uint64
	txid     uint64
}

type validator struct {
	f    *os.File
	size int64
	meta boltMeta
	seen map[uint64]bool
}

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// parseMeta reads a meta page held in buf; ok is false when it does not
// validate.
func parseMeta(buf []byte) (boltMeta, bool) {
	if len(buf) < pageHeaderSize+metaChecksumAt+8 {
		return boltMeta{}, false
	}
	flags := le.Uint16(buf[8:])
	m := buf[pageHeaderSize:]
	if flags != metaPageFlag || le.Uint32(m) != boltMagic || le.Uint32(m[4:]) != boltVersion {
		return boltMeta{}, false
	}
	h := fnv.New64a()
	h.Write(m[:metaChecksumAt])
	if h.Sum64() != le.Uint64(m[metaChecksumAt:]) {
		return boltMeta{}, false
	}
	return boltMeta{
		pageSize: le.Uint32(m[8:]),
		root:     le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]),
		hwm:      le.Uint64(m[40:]),
		txid:     le.Uint64(m[48:]),
	}, true
}

func (v *validator) readAt(off int64, n int) ([]byte, error) {
	buf := make([]byte, n)
	if _, err := v.f.ReadAt(buf, off); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, corruptf("truncated at byte %d", off)
		}
		return nil, err
	}
	return buf, nil
}

// readMeta finds the meta page bbolt will use: the valid one with the
// higher transaction id.
func (v *validator) readMeta() error {
	if v.size < 1024 {
		return corruptf("%d bytes is too short for a BoltDB file", v.size)
	}
	first := make([]byte, min(v.size, 4096))
	if _, err := v.f.ReadAt(first, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	m0, ok0 := parseMeta(first)
	pageSize := int64(m0.pageSize)
	if !ok0 {
		// Find the second meta page as bbolt does: at each possible page size.
		for ps := int64(1024); ps <= 1<<24 && ps < v.size-1024; ps <<= 1 {
			buf := make([]byte, min(4096, v.size-ps))
			if _, err := v.f.ReadAt(buf, ps); err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			if m1, ok := parseMeta(buf); ok && int64(m1.pageSize) == ps {
				pageSize = ps
				break
			}
		}
		if pageSize == 0 {
			return corruptf("not a BoltDB file, or both meta pages are damaged")
		}
	}
	if pageSize < 512 || pageSize > 1<<24 || pageSize&(pageSize-1) != 0 {
		return corruptf("page size %d", pageSize)
	}
	var m1 boltMeta
	ok1 := false
	if v.size >= 2*pageSize {
		buf, err := v.readAt(pageSize, pageHeaderSize+metaChecksumAt+8)
		if err != nil {
			return err
		}
		m1, ok1 = parseMeta(buf)
	}
	if ok0 && int64(m0.pageSize) != pageSize {
		ok0 = false
	}
	if ok1 && int64(m1.pageSize) != pageSize {
		ok1 = false
	}
	switch {
	case ok0 && ok1 && m1.txid > m0.txid, !ok0 && ok1:
		v.meta = m1
	case ok0:
		v.meta = m0
	default:
		return corruptf("both meta pages are damaged")
	}
	m := v.meta
	if m.hwm < 3 || m.hwm > uint64(v.size)/uint64(pageSize) {
		return corruptf("truncated: %d bytes hold %d pages of %d bytes, the file needs %d",
			v.size, v.size/pageSize, pageSize, m.hwm)
	}
	if m.root < 2 || m.root >= m.hwm {
		return corruptf("root page %d out of range", m.root)
	}
	if m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.hwm) {
		return corruptf("freelist page %d out of range", m.freelist)
	}
	v.seen[0], v.seen[1] = true, true
	return nil
}

// readPage reads page id with its overflow pages and checks its header.
func (v *validator) readPage(id uint64) ([]byte, error) {
	ps := uint64(v.meta.pageSize)
	if id < 2 || id >= v.meta.hwm {
		return nil, corruptf("page %d out of range", id)
	}
	head, err := v.readAt(int64(id*ps), pageHeaderSize)
	if err != nil {
		return nil, err
	}
	if got := le.Uint64(head); got != id {
		return nil, corruptf("page %d claims to be page %d", id, got)
	}
	overflow := uint64(le.Uint32(head[12:]))
	if id+overflow >= v.meta.hwm {
		return nil, corruptf("page %d overflows past the end", id)
	}
	for i := id; i <= id+overflow; i++ {
		if v.seen[i] {
			return nil, corruptf("page %d is referenced twice, or is free and in use", i)
		}
		v.seen[i] = true
	}
	return v.readAt(int64(id*ps), int((overflow+1)*ps))
}

func (v *validator) checkFreelist() error {
	if v.meta.freelist == noFreelist {
		return nil
	}
	p, err := v.readPage(v.meta.freelist)
	if err != nil {
		return err
	}
	if le.Uint16(p[8:]) != freelistPageFlag {
		return corruptf("page %d is not the freelist", v.meta.freelist)
	}
	start, count := pageHeaderSize, uint64(le.Uint16(p[10:]))
	if count == 0xFFFF {
		if len(p) < pageHeaderSize+8 {
			return corruptf("freelist truncated")
		}
		count = le.Uint64(p[pageHeaderSize:])
		start += 8
	}
	if count > uint64(len(p)-start)/8 {
		return corruptf("freelist of %d pages does not fit its page", count)
	}
	free := make(map[uint64]bool, count)
	for i := uint64(0); i < count; i++ {
		id := le.Uint64(p[start+int(i)*8:])
		if id < 2 || id >= v.meta.hwm || free[id] {
			return corruptf("freelist holds page %d", id)
		}
		free[id] = true
	}
	// Pages reachable from the root must not be free; the walk marks them
	// seen after this, so remember the free ones as seen too: a reachable
	// free page then shows as referenced twice.
	for id := range free {
		v.seen[id] = true
	}
	return nil
}

// walk checks page id and everything below it.
func (v *validator) walk(id uint64, depth int) error {
	if depth > maxTreeDepth {
		return corruptf("tree deeper than %d at page %d", maxTreeDepth, id)
	}
	p, err := v.readPage(id)
	if err != nil {
		return err
	}
	return v.checkNode(p, id, depth)
}

// checkNode checks a branch or leaf page held in p (a page of the file, or
// an inline bucket's page), then descends.
func (v *validator) checkNode(p []byte, id uint64, depth int) error {
	if len(p) < pageHeaderSize {
		return corruptf("page %d truncated", id)
	}
	flags, count := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if flags != branchPageFlag && flags != leafPageFlag {
		return corruptf("page %d has type %#x, not branch or leaf", id, flags)
	}
	if pageHeaderSize+count*elementSize > len(p) {
		return corruptf("page %d: %d elements do not fit", id, count)
	}
	if flags == branchPageFlag && count == 0 {
		return corruptf("page %d: empty branch", id)
	}
	var prev []byte
	for i := 0; i < count; i++ {
		at := pageHeaderSize + i*elementSize
		e := p[at : at+elementSize]
		var key, val []byte
		var child uint64
		var eflags uint32
		if flags == branchPageFlag {
			pos, ksize := uint64(le.Uint32(e)), uint64(le.Uint32(e[4:]))
			child = le.Uint64(e[8:])
			if uint64(at)+pos+ksize > uint64(len(p)) {
				return corruptf("page %d: element %d out of bounds", id, i)
			}
			key = p[uint64(at)+pos : uint64(at)+pos+ksize]
		} else {
			eflags = le.Uint32(e)
			pos, ksize, vsize := uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
			if uint64(at)+pos+ksize+vsize > uint64(len(p)) {
				return corruptf("page %d: element %d out of bounds", id, i)
			}
			key = p[uint64(at)+pos : uint64(at)+pos+ksize]
			val = p[uint64(at)+pos+ksize : uint64(at)+pos+ksize+vsize]
		}
		if len(key) == 0 {
			return corruptf("page %d: element %d has an empty key", id, i)
		}
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			return corruptf("page %d: keys out of order at element %d", id, i)
		}
		prev = key
		switch {
		case flags == branchPageFlag:
			if err := v.walk(child, depth+1); err != nil {
				return err
			}
		case eflags&bucketLeafFlag != 0:
			if len(val) < bucketHeaderSize {
				return corruptf("page %d: bucket %q has a short header", id, key)
			}
			if root := le.Uint64(val); root != 0 {
				if err := v.walk(root, depth+1); err != nil {
					return err
				}
			} else if err := v.checkNode(val[bucketHeaderSize:], id, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
