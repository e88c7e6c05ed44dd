size_t my_strlen(const char *s) {
    const char *p = s;
    while (*p) p++;
    return (size_t)(p - s);
}

char *reverse(char *s) {
    size_t n = my_strlen(s);
    for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
        char t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    return s;
}

int count_char(const char *s, char c) {
    int k = 0;
    for (; *s != '\0'; ++s)
        if (*s == c) k += 1;
    return k;
}
