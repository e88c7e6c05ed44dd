package org.example.io;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public class Resources {
    public static List<String> readLines(Path path) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(path)) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line.strip());
            }
        }
        return lines;
    }

    public static int copy(String from, String to) {
        final BufferedReader shared = null;
        try (var in = new FileReader(from); var out = new java.io.FileWriter(to);) {
            int c, n = 0;
            while ((c = in.read()) != -1) {
                out.write(c);
                n++;
            }
            return n;
        } catch (IOException | UncheckedIOException e) {
            System.err.println("copy failed: " + e.getMessage());
            return -1;
        } catch (RuntimeException e) {
            throw new IllegalStateException(e);
        } finally {
            System.out.println("done");
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try (c) {
            assert c != null : "nothing to close";
        } catch (Exception ignored) {
            // nothing to do
        }
    }

    public static void main(String[] args) throws IOException {
        for (String line : readLines(Path.of(args[0]))) {
            System.out.println(line);
        }
        System.exit(copy(args[0], args[1]) < 0 ? 1 : 0);
    }
}
