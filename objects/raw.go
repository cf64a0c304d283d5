package objects

import "sync"

// Raw returns the bytes of an object's file (its zstd frame and trailing
// hash) after checking them as Get does. They are what travels between
// stores: a receiver checks them with Decode and keeps them as they are.
func (s *Store) Raw(id ID) ([]byte, error) {
	raw, _, err := s.read(id)
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// Encode returns the ID of data and the bytes of its object file, the form
// Put writes and Raw returns.
func Encode(data []byte) (ID, []byte) { return Hash(data), encodeFile(data) }

func encodeFile(data []byte) []byte { return appendFile(nil, data) }

// appendFile appends the bytes of data's object file to dst.
func appendFile(dst, data []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, len(data)/3+64+IDSize)
	}
	at := len(dst)
	dst = encoder().EncodeAll(data, dst)
	sum := Hash(dst[at:])
	return append(dst, sum[:]...)
}

// fileBufs are the buffers Put encodes object files in: a file's bytes are
// written and dropped.
var fileBufs = sync.Pool{New: func() any { return new([]byte) }}

// Decode checks the bytes of an object file that claims to be id (read from
// elsewhere: another store, a remote) and returns the object's bytes. Bytes
// that are damaged, do not decode or do not hash to id are a *CorruptError
// whose Path is from (a description of where they came from).
func Decode(id ID, raw []byte, from string) ([]byte, error) {
	return (&Store{}).decode(id, from, raw)
}
