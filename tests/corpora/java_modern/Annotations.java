package org.example.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@interface Route {
    String value();
    String[] methods() default {"GET"};
    int priority() default 0;
    Class<?> handler() default Object.class;
}

@Deprecated(since = "2.1", forRemoval = true)
@SuppressWarnings({"unchecked", "rawtypes"})
public class Annotations {
    @FunctionalInterface
    interface Handler {
        String handle(@SuppressWarnings("unused") String request) throws Exception;
    }

    @Route(value = "/users", methods = {"GET", "POST"}, priority = 2)
    public String users(final @Deprecated String query) {
        return "users:" + query;
    }

    @Route("/health")
    @Override
    public String toString() {
        return "Annotations";
    }

    @SafeVarargs
    public static <T> int count(T... items) {
        @SuppressWarnings("unused") int n = items.length;
        return n;
    }

    public static void main(String[] args) throws Exception {
        Handler h = (@Deprecated var req) -> req.toUpperCase();
        System.out.println(h.handle("ping") + count(1, 2, 3));
    }
}
