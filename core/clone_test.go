package core

import (
	"reflect"
	"testing"
)

// A clone shares nothing a sink could change with the events it copies;
// a field of Event that holds a reference and that CloneEvents does not
// copy fails the test.
func TestCloneEventsSharesNothing(t *testing.T) {
	copied := map[string]bool{"Files": true, "ExitCode": true, "Tokens": true, "Activity": true}
	typ := reflect.TypeFor[Event]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func:
			if !copied[f.Name] {
				t.Errorf("Event.%s holds a reference that CloneEvents does not copy", f.Name)
			}
		}
	}
	code := 3
	evs := []Event{{Text: "a", ExitCode: &code, Tokens: &Tokens{Input: 1},
		Activity: &Activity{Invocation: Invocation{Result: CapturePending}},
		Files:    []FileTouch{{Path: "p", NewText: "secret"}}}}
	c := CloneEvents(evs)
	c[0].Text = "b"
	*c[0].ExitCode = 4
	c[0].Tokens.Input = 2
	c[0].Activity.Invocation.Result = CaptureCaptured
	c[0].Files[0].NewText = "[redacted]"
	e := evs[0]
	if e.Text != "a" || *e.ExitCode != 3 || e.Tokens.Input != 1 || e.Activity.Invocation.Result != CapturePending || e.Files[0].NewText != "secret" {
		t.Fatalf("changing the clone changed the original: %+v", e)
	}
}
