package org.example.collections;

import java.util.*;
import java.util.function.Function;

/** Generic containers with nested type arguments closed by >> and >>>. */
public final class Generics<K extends Comparable<? super K>, V> implements Iterable<Map.Entry<K, V>> {
    private final Map<K, List<V>> index = new TreeMap<>();
    private final Map<String, Map<K, List<V>>> byGroup = new HashMap<>();
    private final List<Map<String, List<Integer>>> deep = new ArrayList<>();
    private Optional<Map.Entry<K, V>> last = Optional.empty();

    public void put(K key, V value) {
        index.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        last = Optional.of(new AbstractMap.SimpleEntry<K, V>(key, value));
    }

    public static <T extends Comparable<T>> T max(Collection<? extends T> items) {
        T best = null;
        for (T item : items) {
            if (best == null || item.compareTo(best) > 0) {
                best = item;
            }
        }
        return best;
    }

    public <R> List<R> mapAll(Function<? super V, ? extends R> f) {
        List<R> out = new ArrayList<R>();
        for (List<V> values : index.values()) {
            for (V v : values) {
                out.add(f.apply(v));
            }
        }
        return out;
    }

    static int mix(int h) {
        int x = h >>> 16;
        int y = (h << 3) >> 2;
        return x ^ y >>> 1;
    }

    @Override
    public Iterator<Map.Entry<K, V>> iterator() {
        List<Map.Entry<K, V>> entries = new ArrayList<>();
        for (Map.Entry<K, List<V>> e : index.entrySet()) {
            for (V v : e.getValue()) {
                entries.add(Map.entry(e.getKey(), v));
            }
        }
        return entries.iterator();
    }

    public static void main(String[] args) {
        Generics<String, Integer> g = new Generics<>();
        g.put("a", 1);
        List<String> names = Collections.<String>emptyList();
        Map<String, List<Map<String, Integer>>> nested = new HashMap<String, List<Map<String, Integer>>>();
        System.out.println(max(Arrays.asList(3, 1, 2)) + " " + names.size() + nested.size() + mix(42));
    }
}
