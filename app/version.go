package app

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// revision is the VCS revision set at link time (-X) where the build had
// no VCS information, as in a container build.
var revision string

// Version is the program's version: the module version and the VCS
// revision it was built from, as the Go toolchain stamped them.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	version, revision, modified := info.Main.Version, revision, false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision != "" {
		version += " (" + revision[:min(12, len(revision))]
		if modified {
			version += ", modified"
		}
		version += ")"
	}
	return version + " " + info.GoVersion
}

func versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version: module version, VCS revision and Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), "leaderboard", Version())
			return nil
		},
	}
}
