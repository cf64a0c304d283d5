package semantic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
)

// The JSON descriptions of the vectors (set.json, the generation
// manifests) carry a "sum": the CRC-32C of their compact JSON without it.
// A file read back must be that JSON byte for byte with the sum it holds,
// so a flipped byte anywhere in it is damage, not a silently different
// value. Files written before sums existed have none and are read as they
// were.

// sumOf is the sum of v's compact JSON with its sum field empty (set by
// clear and restored by the caller).
func sumOf(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%08x", crc32.Checksum(data, castagnoli())), nil
}

// sealJSON sets *sum to the sum of v and returns v's JSON.
func sealJSON(v any, sum *string) ([]byte, error) {
	*sum = ""
	s, err := sumOf(v)
	if err != nil {
		return nil, err
	}
	*sum = s
	return json.Marshal(v)
}

// sealed reports whether raw, decoded into v (whose sum field is *sum), is
// intact: no sum (an older file), or exactly the JSON its sum was made of.
func sealed(raw []byte, v any, sum *string) bool {
	got := *sum
	if got == "" {
		return true
	}
	*sum = ""
	want, err := sumOf(v)
	*sum = got
	if err != nil || want != got {
		return false
	}
	again, err := json.Marshal(v)
	return err == nil && bytes.Equal(again, raw)
}
