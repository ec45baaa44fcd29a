//go:build race

package emulator

const raceEnabled = true
