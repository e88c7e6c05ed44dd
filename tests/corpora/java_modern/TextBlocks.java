package org.example.templates;

import java.util.List;
import java.util.stream.Collectors;

public class TextBlocks {
    private static final String HTML = """
        <html>
            <body>
                <p>Hello, "world"!</p>
            </body>
        </html>
        """;

    private static final String QUERY = """
        SELECT id, name
        FROM users
        WHERE name LIKE 'a%' \
        ORDER BY id
        """;

    static String json(String name, long id) {
        return """
            {"name": "%s", "id": %d, "escaped": "\"""}
            """.formatted(name, id);
    }

    static String join(List<String> items) {
        var sb = new StringBuilder();
        for (var item : items) {
            sb.append(item).append('\n');
        }
        var text = sb.toString();
        return text.isEmpty() ? "" : text.lines().collect(Collectors.joining(", ", "[", "]"));
    }

    public static void main(String[] args) {
        long big = 1_000_000L;
        int hex = 0xFF_FF, bin = 0b1010_1010, oct = 017;
        double d = 1.5e-3, e = .25, f = 3.f;
        float g = 2.5F;
        System.out.println(HTML + QUERY + json("ann", big) + join(List.of("a", "b")));
        System.out.println(hex + bin + oct + d + e + f + g + "tab\there" + "quote\"inside");
    }
}
