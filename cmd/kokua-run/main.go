// Command kokua-run loads a compiled policy and answers what Kokua answers
// at runtime: may this agent call this tool, does the call ask first and
// whom, what does loading a toolset add. It fails closed.
package main

import "os"

func main() { os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
