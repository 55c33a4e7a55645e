package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Migrating from jox" section is one table: a row for every public type and member
 * of jox 1.1.2 ({@link JoxApi}, kept here as data) with weft's equivalent and the difference in
 * behavior, then rows for what only weft has. This test fails when a jox member has no row, a row
 * names something jox does not have, a weft equivalent does not exist (checked by reflection) or
 * is static where jox's is not (or the reverse), or a "weft only" row claims something jox has.
 */
class JoxApiTableTest {
    static final String SECTION = "## Migrating from jox";
    static final String NONE = "—";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** A table row: jox's member and weft's (each {@code null} for {@link #NONE}), the difference. */
    record Row(int line, String jox, String weft, String difference) {}

    static String readme() throws IOException {
        return Files.readString(ReadmeExamplesTest.readme(), StandardCharsets.UTF_8);
    }

    @Test
    void everyJoxMemberHasARowAndEveryRowResolvesInWeft() throws IOException {
        String readme = readme();
        assertEquals(List.of(), problems(readme));
        List<Row> rows = table(readme);
        long joxRows = rows.stream().filter(r -> r.jox() != null).count();
        assertEquals(JoxApi.ENTRIES.size(), joxRows);
        System.out.println("migration table: " + rows.size() + " rows, " + joxRows + " for jox 1.1.2's API");
    }

    @Test
    void theTableStatesTheDifferencesOfIssue9() throws IOException {
        Map<String, Row> byJox = new LinkedHashMap<>();
        for (Row r : table(readme())) {
            if (r.jox() != null) {
                byJox.put(r.jox(), r);
            }
        }
        assertMentions(byJox.get("Channel.newBufferedChannel(int)"), "-1", "IllegalArgumentException");
        assertMentions(byJox.get("Sink.trySend(T, Sink<T>...)"), "Sink.trySend(v, null)", "(Sink<T>[]) null");
        assertMentions(byJox.get("Select.selectWithin(Duration, SelectClause<? extends U>...)"),
                "Duration.ZERO", "IllegalArgumentException", "TimeoutException");
        assertMentions(byJox.get("Select.selectOrClosedWithin(Duration, U, SelectClause<? extends U>...)"),
                "Duration.ZERO", "IllegalArgumentException");
        assertMentions(byJox.get("Channel.DEFAULT_BUFFER_SIZE"), "16");
        for (String defaulted : List.of("Source.tryReceive()", "Source.tryReceiveOrClosed()", "Sink.trySend(T)",
                "Sink.trySendOrClosed(T)", "CloseableChannel.isClosedForSend()", "CloseableChannel.isClosedForReceive()")) {
            assertMentions(byJox.get(defaulted), "default");
        }
    }

    private static void assertMentions(Row row, String... texts) {
        assertTrue(row != null, "missing row");
        for (String t : texts) {
            assertTrue(row.difference().contains(t), "row at README line " + row.line() + " should mention " + t
                    + ": " + row.difference());
        }
    }

    // ---------------------------------------------------------------- the checker can fail

    @Test
    void checkerReportsAMissingRow() throws IOException {
        String readme = readme();
        String row = lineContaining(readme, "| `Sink.trySend(T, Sink<T>...)` |");
        List<String> problems = problems(readme.replace(row + "\n", ""));
        assertTrue(problems.contains("no row for jox's Sink.trySend(T, Sink<T>...)"), problems.toString());
    }

    @Test
    void checkerReportsAWeftMemberThatDoesNotExist() throws IOException {
        String readme = readme();
        String row = lineContaining(readme, "| `Source.toList()` |");
        List<String> problems = problems(readme.replace(row, "| `Source.toList()` | `Source.toSet()` | x |"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("weft has no public Source.toSet()")), problems.toString());
    }

    /** The README bug of issue 9, point 6: calling a jox method a weft addition. */
    @Test
    void checkerReportsAWeftOnlyClaimForSomethingJoxHas() throws IOException {
        String readme = readme();
        String row = lineContaining(readme, "| `Source.toList()` |");
        List<String> problems = problems(readme.replace(row, row + "\n| — | `Source.tryReceive()` | weft adds it |"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("Source.tryReceive() is listed as weft only")),
                problems.toString());
    }

    @Test
    void checkerReportsAStaticMismatchAndANameNotInJox() throws IOException {
        String readme = readme();
        String row = lineContaining(readme, "| `Sink.trySend(T, Sink<T>...)` |");
        List<String> problems = problems(readme.replace(row, "| `Sink.trySend(T, Sink<T>...)` | `Sink.trySend(T, Duration)` | x |"
                + "\n| `Sink.offer(T)` | `Sink.trySend(T)` | x |"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("static in jox but not in weft")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("Sink.offer(T) is not in jox 1.1.2's API")),
                problems.toString());
    }

    private static String lineContaining(String text, String fragment) {
        return text.lines().filter(l -> l.contains(fragment)).findFirst()
                .orElseThrow(() -> new AssertionError("no README line contains " + fragment));
    }

    // ---------------------------------------------------------------- parsing and checking

    /** The rows of the one table in the migration section (after its header and separator). */
    static List<Row> table(String readme) {
        int start = readme.indexOf("\n" + SECTION + "\n");
        if (start < 0) {
            throw new AssertionError("README has no section " + SECTION);
        }
        int end = readme.indexOf("\n## ", start + 1);
        String[] lines = readme.substring(0, end < 0 ? readme.length() : end).split("\n", -1);
        int firstLine = (int) readme.substring(0, start + 1).lines().count(); // 0-based index of the heading
        List<Row> rows = new ArrayList<>();
        int tables = 0;
        boolean inTable = false;
        for (int i = firstLine; i < lines.length; i++) {
            String l = lines[i].strip();
            if (!l.startsWith("|")) {
                inTable = false;
                continue;
            }
            if (!inTable) {
                inTable = true;
                tables++;
                i++; // the header; the next line is the separator
                continue;
            }
            List<String> cells = cells(l);
            if (cells.size() != 3) {
                throw new AssertionError("README line " + (i + 1) + " should have 3 cells: " + l);
            }
            rows.add(new Row(i + 1, member(cells.get(0)), member(cells.get(1)), cells.get(2)));
        }
        if (tables != 1) {
            throw new AssertionError(SECTION + " should hold exactly one table, found " + tables);
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        List<String> cells = new ArrayList<>();
        for (String c : inner.split("\\|", -1)) {
            cells.add(c.strip());
        }
        return cells;
    }

    /** The first code span of a cell, or {@code null} when the cell is {@link #NONE}. */
    private static String member(String cell) {
        if (cell.equals(NONE)) {
            return null;
        }
        Matcher m = CODE.matcher(cell);
        if (!m.find()) {
            throw new AssertionError("a member cell needs a `code span` or " + NONE + ": " + cell);
        }
        return m.group(1);
    }

    /** Everything wrong with the migration table; empty when it is complete and true. */
    static List<String> problems(String readme) {
        Map<String, JoxApi.Entry> jox = new LinkedHashMap<>();
        for (JoxApi.Entry e : JoxApi.ENTRIES) {
            jox.put(e.key(), e);
        }
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Row r : table(readme)) {
            String where = "README line " + r.line() + ": ";
            if (r.difference().isBlank()) {
                problems.add(where + "the difference column is empty");
            }
            JoxApi.Entry entry = r.jox() == null ? null : jox.get(r.jox());
            if (r.jox() != null && entry == null) {
                problems.add(where + r.jox() + " is not in jox 1.1.2's API");
            }
            if (r.jox() != null && !seen.add(r.jox())) {
                problems.add(where + "a second row for " + r.jox());
            }
            if (r.jox() == null && r.weft() == null) {
                problems.add(where + "a row needs a jox or a weft member");
            }
            if (r.jox() == null && r.weft() != null && jox.containsKey(r.weft())) {
                problems.add(where + r.weft() + " is listed as weft only, but jox 1.1.2 has it");
            }
            if (r.weft() == null) {
                continue;
            }
            Object member;
            try {
                member = Signatures.resolve(r.weft());
            } catch (IllegalArgumentException e) {
                problems.add(where + e.getMessage());
                continue;
            }
            if (entry != null && member instanceof java.lang.reflect.Method) {
                boolean joxStatic = entry.kind() == JoxApi.Kind.STATIC;
                if (joxStatic != Signatures.isStatic(member)) {
                    problems.add(where + r.jox() + (joxStatic ? " is static in jox but not in weft ("
                            : " is an instance method in jox but static in weft (") + r.weft() + ")");
                }
            }
        }
        for (String key : jox.keySet()) {
            if (!seen.contains(key)) {
                problems.add("no row for jox's " + key);
            }
        }
        return problems;
    }
}
