// Package cache is a generic LRU cache safe for concurrent use.
package cache

import (
	"container/list"
	"sync"
	"time"
)

type entry[K comparable, V any] struct {
	key     K
	value   V
	expires time.Time
}

// Cache holds at most cap entries; the least recently used one goes first.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	cap     int
	ttl     time.Duration
	ll      *list.List
	items   map[K]*list.Element
	onEvict func(K, V)
	hits, misses uint64
}

type Option[K comparable, V any] func(*Cache[K, V])

func WithTTL[K comparable, V any](d time.Duration) Option[K, V] {
	return func(c *Cache[K, V]) { c.ttl = d }
}

func WithEvict[K comparable, V any](f func(K, V)) Option[K, V] {
	return func(c *Cache[K, V]) {
		c.onEvict = f
	}
}

func New[K comparable, V any](capacity int, opts ...Option[K, V]) *Cache[K, V] {
	c := &Cache[K, V]{
		cap:   capacity,
		ll:    list.New(),
		items: make(map[K]*list.Element, capacity),
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

func (c *Cache[K, V]) Get(key K) (v V, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, hit := c.items[key]
	if !hit {
		c.misses++
		return
	}
	e := el.Value.(*entry[K, V])
	if c.ttl > 0 && time.Now().After(e.expires) {
		c.remove(el)
		c.misses++
		return v, false
	}
	c.ll.MoveToFront(el)
	c.hits++
	return e.value, true
}

func (c *Cache[K, V]) Put(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var expires time.Time
	if c.ttl > 0 {
		expires = time.Now().Add(c.ttl)
	}
	if el, ok := c.items[key]; ok {
		c.ll.MoveToFront(el)
		e := el.Value.(*entry[K, V])
		e.value, e.expires = value, expires
		return
	}
	c.items[key] = c.ll.PushFront(&entry[K, V]{key, value, expires})
	for c.ll.Len() > c.cap {
		c.remove(c.ll.Back())
	}
}

func (c *Cache[K, V]) remove(el *list.Element) {
	e := c.ll.Remove(el).(*entry[K, V])
	delete(c.items, e.key)
	if c.onEvict != nil {
		c.onEvict(e.key, e.value)
	}
}

func (c *Cache[K, V]) Stats() (hits, misses uint64, ratio float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hits, misses = c.hits, c.misses
	if total := hits + misses; total > 0 {
		ratio = float64(hits) / float64(total)
	}
	return
}

func (c *Cache[K, V]) Keys() []K {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]K, 0, c.ll.Len())
	for el := c.ll.Front(); el != nil; el = el.Next() {
		keys = append(keys, el.Value.(*entry[K, V]).key)
	}
	return keys
}

var _ = New[string, []byte](128, WithTTL[string, []byte](time.Minute))
