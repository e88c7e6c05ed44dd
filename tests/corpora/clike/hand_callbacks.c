typedef int (*compare_fn)(const void *, const void *);

static int by_value(const void *pa, const void *pb) {
    const int *a = (const int *)pa, *b = (const int *)pb;
    return (*a > *b) - (*a < *b);
}

void sort_ints(int *xs, unsigned long n, compare_fn cmp) {
    for (unsigned long i = 1; i < n; ++i) {
        int key = xs[i];
        long j = (long)i - 1;
        while (j >= 0 && cmp(&xs[j], &key) > 0) {
            xs[j + 1] = xs[j];
            j--;
        }
        xs[j + 1] = key;
    }
}

int main(void) {
    int data[] = { 5, 3, 9, 1, 7 };
    sort_ints(data, sizeof data / sizeof data[0], by_value);
    printf("%d %d\n", data[0], data[4]);
    return 0;
}
