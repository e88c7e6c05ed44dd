package org.example.geometry;

import java.util.List;
import java.util.Objects;

public sealed interface Records permits Records.Point, Records.Circle, Records.Polygon {
    double area();

    record Point(double x, double y) implements Records {
        public Point {
            if (Double.isNaN(x) || Double.isNaN(y)) {
                throw new IllegalArgumentException("NaN coordinate");
            }
        }

        public static Point origin() {
            return new Point(0.0, 0.0);
        }

        @Override
        public double area() {
            return 0;
        }

        double distanceTo(Point other) {
            double dx = x - other.x(), dy = y - other.y;
            return Math.sqrt(dx * dx + dy * dy);
        }
    }

    record Circle(Point center, double radius) implements Records {
        public double area() {
            return Math.PI * radius * radius;
        }
    }

    record Polygon(List<Point> vertices) implements Records {
        Polygon {
            Objects.requireNonNull(vertices);
            vertices = List.copyOf(vertices);
        }

        public double area() {
            double sum = 0;
            for (int i = 0, n = vertices.size(); i < n; i++) {
                Point a = vertices.get(i), b = vertices.get((i + 1) % n);
                sum += a.x() * b.y() - b.x() * a.y();
            }
            return Math.abs(sum) / 2.0;
        }
    }

    record Pair<A, B>(A first, B second) {
        static <A, B> Pair<A, B> of(A a, B b) {
            return new Pair<>(a, b);
        }
    }

    static String describe(Object shape) {
        if (shape instanceof Circle c && c.radius() > 10) {
            return "big circle";
        } else if (shape instanceof Point p) {
            return "point at " + p.x();
        }
        return shape instanceof Records r ? "area " + r.area() : "unknown";
    }
}
