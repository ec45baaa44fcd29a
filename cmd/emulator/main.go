// Command emulator is the former name of platform-emulator
// (cmd/platform-emulator), kept so that `go install
// github.com/platform/terraform-provider-platform/cmd/emulator@<version>`
// goes on working: the same command, with the same flags and output. New
// installs use cmd/platform-emulator, whose name does not collide with other
// tools' emulator on PATH.
package main

import "github.com/platform/terraform-provider-platform/internal/emulatorcli"

// version is set by a build with -X main.version=...
var version string

func main() { emulatorcli.Main(version) }
