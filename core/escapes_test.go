package core

import "testing"

func TestStripEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                                    "plain",
		"\x1b[1mPostToolUse:Edit\x1b[22m [uv]":     "PostToolUse:Edit [uv]",
		"a\x1b[38;5;196mred\x1b[0m b":              "ared b",
		"\x1b]0;title\x07after":                    "after",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "link",
		"\x1bPdata\x1b\\ok":                        "ok",
		"\x1b7saved\x1b8":                          "saved",
		"\u009b31mc1\u009b0m":                      "c1",
		"end\x1b":                                  "end",
		"\x1b[":                                    "",
		"\x1b]unterminated":                        "",
		"keep\ttabs\nand\rcr\x07":                  "keep\ttabs\nand\rcr\x07",
		"é\x1b[1mü":                                "éü",
	} {
		if got := StripEscapes(in); got != want {
			t.Errorf("StripEscapes(%q) = %q, want %q", in, got, want)
		}
	}
}
