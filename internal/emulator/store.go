package emulator

// Placeholder until the HTTP API lands.
type store struct{}

func newStore(_ Options) *store { return &store{} }
