// compose-check validates a Compose file with compose-go, the library Docker Compose itself loads files with: the
// Compose specification's schema, interpolation and every profile. It prints one line per problem and exits 1 on any.
// Usage: go run . <compose.yaml>   (variables the file requires come from the environment)
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check <compose.yaml>")
		os.Exit(2)
	}
	options, err := cli.NewProjectOptions(
		[]string{os.Args[1]},
		cli.WithOsEnv,
		cli.WithProfiles([]string{"*"}),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: valid (%d services)\n", os.Args[1], len(project.Services))
}
