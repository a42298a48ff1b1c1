package app

import (
	"bytes"
	"strings"
	"testing"
)

func TestVersion_CommandAndFlag(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		cmd := NewCommand(nil)
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil || !strings.Contains(out.String(), "go1.") {
			t.Errorf("%v: %q, %v", args, out.String(), err)
		}
	}
}
