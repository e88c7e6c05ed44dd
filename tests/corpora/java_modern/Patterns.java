package org.example.expr;

/** An expression tree evaluated with record patterns and guarded cases (Java 21). */
public class Patterns {
    sealed interface Expr permits Num, Add, Mul, Neg {}
    record Num(int value) implements Expr {}
    record Add(Expr left, Expr right) implements Expr {}
    record Mul(Expr left, Expr right) implements Expr {}
    record Neg(Expr operand) implements Expr {}

    static int eval(Expr e) {
        return switch (e) {
            case Num n -> n.value();
            case Add(Num(var a), Num(var b)) -> a + b;
            case Add(Expr l, Expr r) -> eval(l) + eval(r);
            case Mul(Expr l, Expr r) when l instanceof Num(int z) && z == 0 -> 0;
            case Mul(Expr l, Expr r) -> eval(l) * eval(r);
            case Neg(Expr inner) -> -eval(inner);
        };
    }

    static String show(Object o) {
        if (o instanceof Add(Expr l, Expr r)) {
            return "(" + show(l) + " + " + show(r) + ")";
        }
        return switch (o) {
            case null, default -> String.valueOf(o);
            case Num(int v) when v < 0 -> "(" + v + ")";
            case Num(int v) -> Integer.toString(v);
            case Mul m -> show(m.left()) + " * " + show(m.right());
        };
    }

    public static void main(String[] args) {
        Expr e = new Add(new Num(2), new Mul(new Num(3), new Neg(new Num(4))));
        System.out.println(show(e) + " = " + eval(e));
    }
}
