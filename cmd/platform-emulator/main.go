// Command platform-emulator runs the service emulator standalone: the token
// endpoint, the HTTP API under /v2, the WebSocket stream and the admin API,
// on a loopback address by default. `platform-emulator -h` lists its flags;
// the guide "Testing with the emulator" describes its use.
package main

import "github.com/platform/terraform-provider-platform/internal/emulatorcli"

// version is set by the release build (-X main.version=...).
var version string

func main() { emulatorcli.Main(version) }
