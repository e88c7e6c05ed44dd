package org.example.model;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.IntBinaryOperator;

public enum Enums implements IntBinaryOperator {
    PLUS("+") {
        @Override
        public int applyAsInt(int a, int b) {
            return a + b;
        }
    },
    MINUS("-") {
        @Override
        public int applyAsInt(int a, int b) {
            return a - b;
        }
    },
    TIMES("*") {
        @Override
        public int applyAsInt(int a, int b) {
            return a * b;
        }
    };

    private final String symbol;

    Enums(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    enum Level { LOW, MEDIUM, HIGH, }

    public static Enums parse(char c) {
        switch (c) {
            case '+':
                return PLUS;
            case '-':
                return MINUS;
            case '*':
            case 'x':
                return TIMES;
            default:
                throw new IllegalArgumentException("unknown operator: " + c);
        }
    }

    public static void main(String[] args) {
        Map<Level, Integer> counts = new EnumMap<>(Level.class);
        for (Level l : Level.values()) {
            counts.put(l, l.ordinal() * 10);
        }
        char quote = '\'';
        char tab = '\t';
        System.out.println(parse('+').applyAsInt(2, 3) + counts.toString() + quote + tab + '\u0041');
    }
}
