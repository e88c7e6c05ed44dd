package org.example.concurrent;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

public abstract class Concurrency<T extends Number & Comparable<T>> {
    protected final ConcurrentHashMap<String, CompletableFuture<List<T>>> cache = new ConcurrentHashMap<>();
    private static final AtomicLong COUNTER = new AtomicLong();
    private volatile boolean closed;
    private transient int hits;

    protected abstract List<T> load(String key) throws InterruptedException;

    public CompletableFuture<List<T>> get(String key, ExecutorService pool) {
        return cache.computeIfAbsent(key, k -> CompletableFuture.supplyAsync(() -> {
            try {
                COUNTER.incrementAndGet();
                return load(k);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new RuntimeException(ex);
            }
        }, pool));
    }

    public synchronized void close() {
        closed = true;
        hits = 0;
    }

    static <A, B, C> Function<A, C> compose(Function<? super A, ? extends B> f, Function<? super B, ? extends C> g) {
        return a -> g.apply(f.apply(a));
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Concurrency<Integer> c = new Concurrency<Integer>() {
            @Override
            protected List<Integer> load(String key) {
                return List.of(key.length(), key.hashCode() & 0xff);
            }
        };
        outer:
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; j++) {
                if (i * j > 2) continue outer;
                synchronized (c) {
                    c.hits += c.get("k" + i, pool).get(1, TimeUnit.SECONDS).size();
                }
            }
        }
        Function<String, Integer> len = compose(String::trim, String::length);
        pool.shutdown();
        System.out.println(len.apply(" x ") + " " + COUNTER.get() + " " + c.hits + " " + c.closed);
    }
}
