package org.example.shapes;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

public class Inheritance {
    public interface Shape extends Comparable<Shape>, Serializable {
        double area();

        default int compareTo(Shape other) {
            return Double.compare(area(), other.area());
        }

        static Shape unit() {
            return () -> 1.0;
        }
    }

    public abstract static class Base implements Shape {
        private static int created;
        protected final String name;

        static {
            created = 0;
        }

        {
            created++;
        }

        protected Base(String name) {
            this.name = name;
        }

        protected Base() {
            this("anonymous");
        }

        @Override
        public String toString() {
            return getClass().getSimpleName() + "(" + name + ", " + area() + ")";
        }
    }

    public static final class Square extends Base {
        private final double side;

        public Square(double side) {
            super("square");
            this.side = side;
        }

        @Override
        public double area() {
            return side * side;
        }
    }

    class Inner {
        int value = Inheritance.this.hashCode();
    }

    public static void main(String[] args) {
        List<Shape> shapes = new ArrayList<>(List.of(new Square(2), Shape.unit()));
        shapes.sort(null);
        Inheritance outer = new Inheritance();
        Inheritance.Inner inner = outer.new Inner();
        Object[] arr = new Object[] {shapes, inner};
        int[][] grid = new int[3][];
        grid[0] = new int[] {1, 2, 3};
        String s = (String) (Object) "cast";
        System.out.println(shapes + " " + arr.length + grid[0][2] + s + int[].class + Base.created);
    }
}
