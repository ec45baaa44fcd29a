package emulator

import "net/http"

// Placeholder until the HTTP API lands.
func (s *Server) registerHTTP(_ *http.ServeMux) {}
