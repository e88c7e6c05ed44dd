#include <stdlib.h>

typedef struct node {
    int value;
    struct node *next;
} node;

typedef node *list;

/* Push a value on the front of the list. */
list push(list head, int value) {
    node *n = malloc(sizeof(node));
    if (n == NULL) return head;
    n->value = value;
    n->next = head;
    return n;
}

int length(list head) {
    int count = 0;
    for (node *p = head; p != NULL; p = p->next) count++;
    return count;
}

void free_list(list head) {
    while (head) {
        node *next = head->next;
        free(head);
        head = next;
    }
}
