package mcp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"ctx/objects"
	"ctx/store"
)

// TestErrorObjectClassified: an error app.CodeOf classifies keeps its code
// and never shows its wrapped message (which names files); an unclassified
// one is internal and reported.
func TestErrorObjectClassified(t *testing.T) {
	for err, code := range map[error]string{
		fmt.Errorf("lock /secret/path: %w", store.ErrBusy):      "store_busy",
		fmt.Errorf("open /secret/path: %w", store.ErrNoStore):   "no_generation",
		fmt.Errorf("blob /secret/path: %w", objects.ErrCorrupt): "corrupt_object",
	} {
		obj := errorObject(err, func(error) { t.Fatalf("%v must not be reported as internal", err) })
		if obj.ErrorCode != code || strings.Contains(obj.Message, "/secret") {
			t.Fatalf("%v: %+v, want code %s without the path", err, obj, code)
		}
	}
	reported := false
	if obj := errorObject(errors.New("/secret/path: boom"), func(error) { reported = true }); obj.ErrorCode != "internal_error" ||
		!reported || strings.Contains(obj.Message, "/secret") {
		t.Fatalf("unclassified: %+v reported %v", obj, reported)
	}
}
