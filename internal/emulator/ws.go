package emulator

import "net/http"

// Placeholder until the stream server lands.
type wsHub struct{}

func newWSHub(_ *Server) *wsHub { return &wsHub{} }

func (h *wsHub) close() {}

func (s *Server) registerWS(_ *http.ServeMux) {}
