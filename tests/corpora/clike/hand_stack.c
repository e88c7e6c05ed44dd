#define CAPACITY 64

enum status { OK, EMPTY = -1, FULL = -2 };

struct stack {
    double items[CAPACITY];
    unsigned int top;
};

static enum status stack_push(struct stack *s, double x) {
    if (s->top >= CAPACITY)
        return FULL;
    s->items[s->top++] = x;
    return OK;
}

static enum status stack_pop(struct stack *s, double *out) {
    if (s->top == 0) return EMPTY;
    *out = s->items[--s->top];
    return OK;
}

double eval_rpn(const char *tokens[], int n) {
    struct stack st = { {0}, 0 };
    double a, b;
    for (int i = 0; i < n; i++) {
        const char *t = tokens[i];
        switch (t[0]) {
        case '+': stack_pop(&st, &b); stack_pop(&st, &a); stack_push(&st, a + b); break;
        case '*': stack_pop(&st, &b); stack_pop(&st, &a); stack_push(&st, a * b); break;
        default: stack_push(&st, atof(t));
        }
    }
    return stack_pop(&st, &a) == OK ? a : 0.0;
}
