//go:build !unix

package semantic

import "os"

// mapFile reads a file into memory where memory mapping is not available.
func mapFile(path string) (data []byte, release func() error, err error) {
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
