package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"time"
)

type Todo struct {
	ID    int       `json:"id"`
	Title string    `json:"title"`
	Done  bool      `json:"done"`
	At    time.Time `json:"created_at"`
}

type store struct {
	sync.RWMutex
	next  int
	todos map[int]*Todo
}

var errNotFound = errors.New("not found")

func (s *store) get(id int) (*Todo, error) {
	s.RLock()
	defer s.RUnlock()
	if t, ok := s.todos[id]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("todo %d: %w", id, errNotFound)
}

func (s *store) add(title string) *Todo {
	s.Lock()
	defer s.Unlock()
	s.next++
	t := &Todo{ID: s.next, Title: title, At: time.Now()}
	s.todos[t.ID] = t
	return t
}

type apiError struct {
	Status  int    `json:"-"`
	Message string `json:"error"`
}

func (e *apiError) Error() string { return e.Message }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.Printf("encode: %v", err)
	}
}

func (s *store) handleTodo(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, &apiError{Message: "bad id"})
		return
	}
	switch r.Method {
	case http.MethodGet:
		t, err := s.get(id)
		var ae *apiError
		switch {
		case errors.Is(err, errNotFound):
			writeJSON(w, http.StatusNotFound, &apiError{http.StatusNotFound, err.Error()})
		case errors.As(err, &ae):
			writeJSON(w, ae.Status, ae)
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		default:
			writeJSON(w, http.StatusOK, t)
		}
	default:
		w.Header().Set("Allow", "GET")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func main() {
	s := &store{todos: make(map[int]*Todo)}
	s.add("write the grammar")
	mux := http.NewServeMux()
	mux.HandleFunc("/todos/{id}", s.handleTodo)
	mux.HandleFunc("POST /todos", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Title string `json:"title"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Title == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "title required"})
			return
		}
		writeJSON(w, http.StatusCreated, s.add(body.Title))
	})
	srv := &http.Server{
		Addr:              ":8080",
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Fatal(err)
		}
	}()
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		log.Printf("shutdown: %v", err)
	}
}
