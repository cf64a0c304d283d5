package corpus

import (
	"math/rand/v2"
	"time"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newRand returns a deterministic generator for a seed and a stream number.
func newRand(seed uint64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream^0x9e3779b97f4a7c15))
}

func randHex(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = hexDigits[r.IntN(16)]
	}
	return string(b)
}

func randBase62(r *rand.Rand, prefix string, n int) string {
	b := make([]byte, len(prefix), len(prefix)+n)
	copy(b, prefix)
	for range n {
		b = append(b, base62[r.IntN(len(base62))])
	}
	return string(b)
}

// uuidString formats 16 bytes as 8-4-4-4-12 lowercase hex.
func uuidString(u [16]byte) string {
	b := make([]byte, 0, 36)
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return string(b)
}

func randBytes16(r *rand.Rand) [16]byte {
	var u [16]byte
	a, b := r.Uint64(), r.Uint64()
	for i := range 8 {
		u[i] = byte(a >> (8 * i))
		u[8+i] = byte(b >> (8 * i))
	}
	return u
}

// uuid4 is a random (version 4) UUID, as Claude Code and old Codex use.
func uuid4(r *rand.Rand) string {
	u := randBytes16(r)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return uuidString(u)
}

// uuid7 is a time-ordered (version 7) UUID, as Codex 0.7x uses for sessions.
func uuid7(r *rand.Rand, t time.Time) string {
	u := randBytes16(r)
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		u[i] = byte(ms >> (8 * (5 - i)))
	}
	u[6] = u[6]&0x0f | 0x70
	u[8] = u[8]&0x3f | 0x80
	return uuidString(u)
}

// Provider-specific identifiers, shaped like the real ones.
func msgID(r *rand.Rand) string     { return randBase62(r, "msg_01", 22) }
func toolUseID(r *rand.Rand) string { return randBase62(r, "toolu_01", 22) }
func requestID(r *rand.Rand) string { return randBase62(r, "req_011C", 20) }
func callID(r *rand.Rand) string    { return randBase62(r, "call_", 24) }

// signature is an opaque base64-looking blob like a thinking signature or
// Codex encrypted reasoning.
func signature(r *rand.Rand, prefix string, n int) string {
	const b64 = base62 + "+/"
	b := make([]byte, len(prefix), len(prefix)+n)
	copy(b, prefix)
	for range n {
		b = append(b, b64[r.IntN(len(b64))])
	}
	return string(b)
}
