typedef int T;
int a, b, x, y;
int f(int v) { return v; }

void demo(void) {
    a * b;
    T (x);
    (T) - x;
    (f)(y);
    y = sizeof (T) + sizeof (x);
    if (a) if (b) x = 1; else x = 2;
}
