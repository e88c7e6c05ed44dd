package org.example.streams;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

public class Lambdas {
    record Person(String name, int age) {}

    public static void main(String[] args) {
        List<Person> people = Arrays.asList(new Person("Ann", 31), new Person("Bob", 25), new Person("Cy", 47));

        List<String> names = people.stream()
            .filter(p -> p.age() > 30)
            .sorted(Comparator.comparing(Person::name).reversed())
            .map(Person::name)
            .collect(Collectors.toList());

        Map<Boolean, List<Person>> split = people.stream()
            .collect(Collectors.partitioningBy(p -> p.age() >= 30));

        BiFunction<Integer, Integer, Integer> add = (a, b) -> a + b;
        BiFunction<Integer, Integer, Integer> mul = (Integer a, Integer b) -> {
            int r = a * b;
            return r;
        };
        Supplier<List<String>> fresh = java.util.ArrayList::new;
        Runnable r = () -> System.out.println("run");
        r.run();

        int[] squares = IntStream.rangeClosed(1, 10).map(x -> x * x).toArray();
        String[] copy = names.toArray(String[]::new);
        int total = IntStream.of(squares).reduce(0, Integer::sum);
        Comparator<String> byLength = (s1, s2) -> Integer.compare(s1.length(), s2.length());
        Runnable casted = (Runnable) () -> {};
        casted.run();
        names.forEach(System.out::println);
        System.out.println(add.apply(2, 3) + mul.apply(4, 5) + total + copy.length + split.size()
            + fresh.get().size() + byLength.compare("a", "bb"));
    }
}
