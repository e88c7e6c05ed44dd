package org.example.calendar;

import java.time.DayOfWeek;

public class Switches {
    enum Kind { WORKDAY, WEEKEND }

    static Kind kind(DayOfWeek day) {
        return switch (day) {
            case SATURDAY, SUNDAY -> Kind.WEEKEND;
            default -> Kind.WORKDAY;
        };
    }

    static int letters(DayOfWeek day) {
        int n = switch (day) {
            case MONDAY, FRIDAY, SUNDAY -> 6;
            case TUESDAY -> 7;
            case THURSDAY, SATURDAY -> 8;
            case WEDNESDAY -> {
                int k = day.toString().length();
                yield k;
            }
        };
        return n;
    }

    static String old(int code) {
        String result;
        switch (code) {
            case 1:
            case 2:
                result = "low";
                break;
            case 3:
                result = "mid";
                break;
            default:
                result = "high";
        }
        return result;
    }

    static String classic(int code) {
        return switch (code) {
            case 0:
                yield "zero";
            default:
                yield "other";
        };
    }

    static void log(Object o) {
        switch (o) {
            case null -> System.out.println("null");
            case String s -> System.out.println("string " + s.length());
            case Integer i -> System.out.println("int " + (i + 1));
            default -> throw new IllegalStateException("unexpected: " + o);
        }
    }

    public static void main(String[] args) {
        for (DayOfWeek d : DayOfWeek.values()) {
            System.out.println(d + " " + kind(d) + " " + letters(d) + old(d.getValue()) + classic(0));
        }
        log("x");
    }
}
