package emulator

import "net/http"

// Placeholder until the admin API lands.
func (s *Server) registerAdmin(_ *http.ServeMux) {}
