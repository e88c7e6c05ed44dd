package config

import (
	"encoding/json"
	"os"
	"time"
)

// Server is decoded from JSON; the tags name the fields.
type Server struct {
	Name    string            `json:"name"`
	Addr    string            `json:"addr,omitempty" yaml:"address"`
	Timeout time.Duration     `json:"timeout"`
	Labels  map[string]string `json:"labels,omitempty"`
	TLS     *TLSConfig        `json:"tls,omitempty"`
	Routes  []Route           `json:"routes"`
	secret  string
}

type TLSConfig struct {
	CertFile, KeyFile string `json:"-"`
	Insecure          bool   "json:\"insecure\""
}

type Route struct {
	Path    string   `json:"path"`
	Methods []string `json:"methods"`
	Backend struct {
		Host string `json:"host"`
		Port int    `json:"port"`
	} `json:"backend"`
}

// Logger is embedded into Service; its methods are promoted.
type Logger struct{ prefix string }

func (l *Logger) Logf(format string, args ...any) {}

type Service struct {
	*Logger
	Server
	json.Marshaler
	Extra struct{}
	deps  []*Service
}

var Default = Server{
	Name:    "default",
	Addr:    ":8080",
	Timeout: 30 * time.Second,
	Labels: map[string]string{
		"env":  "dev",
		"team": "platform",
	},
	Routes: []Route{
		{Path: "/", Methods: []string{"GET"}},
		{
			Path:    "/api",
			Methods: []string{"GET", "POST"},
		},
	},
}

var grid = [3][3]int{
	{1, 2, 3},
	{4, 5, 6},
	{7, 8, 9},
}

var byName = map[string]*Route{
	"root": {Path: "/"},
	"api":  {Path: "/api", Methods: nil},
}

var points = map[[2]int]struct{ Name string }{
	{0, 0}: {"origin"},
	{1, 0}: {Name: "east"},
}

var sparse = [...]string{2: "two", 5: "five", 0: "zero"}

func Load(path string) (*Server, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := new(Server)
	*s = Default
	if err := json.Unmarshal(data, s); err != nil {
		return nil, err
	}
	if s.TLS == nil {
		s.TLS = &TLSConfig{Insecure: true}
	}
	svc := Service{Logger: &Logger{prefix: s.Name}, Server: *s}
	svc.Logf("loaded %s with %d routes", svc.Name, len(svc.Routes))
	return s, nil
}
