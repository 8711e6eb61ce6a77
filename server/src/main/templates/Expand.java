import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Expands the primitive templates into Java sources, one file per template and type (fastutil's
 * model, without its C preprocessor): run by the server build in generate-sources as
 * {@code java Expand.java TEMPLATE_DIR OUT_DIR} (a single-file program: nothing to compile first).
 *
 * <p>A template {@code a/b/TypeX.java.tmpl} becomes {@code a/b/IntX.java}, {@code LongX.java} and
 * {@code DoubleX.java}; in its text (and name) these tokens are replaced:
 * <pre>
 *   $type$   int       long       double      (the primitive)
 *   $Type$   Int       Long       Double      (class-name part)
 *   $Boxed$  Integer   Long       Double      (MIN_VALUE, MAX_VALUE)
 *   $TYPE$   INT       BIGINT     FLOAT       (the ColumnType stored as itself)
 *   $width$  4         8          8           (bytes per value)
 * </pre>
 * and whole-line directives keep or drop the lines between them (they nest):
 * {@code //#if int long}, {@code //#else}, {@code //#endif}. A first line {@code //#types int long}
 * restricts a template to some types (default: all three). Nothing else is interpreted, so a
 * generated file reads exactly like the template with the types filled in.
 */
public final class Expand {
    private static final List<Map<String, String>> TYPES = List.of(
            Map.of("$type$", "int", "$Type$", "Int", "$Boxed$", "Integer", "$TYPE$", "INT", "$width$", "4"),
            Map.of("$type$", "long", "$Type$", "Long", "$Boxed$", "Long", "$TYPE$", "BIGINT", "$width$", "8"),
            Map.of("$type$", "double", "$Type$", "Double", "$Boxed$", "Double", "$TYPE$", "FLOAT", "$width$", "8"));

    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        List<Path> templates;
        try (Stream<Path> s = Files.walk(in)) {
            templates = s.filter(p -> p.toString().endsWith(".java.tmpl")).sorted().toList();
        }
        int files = 0;
        for (Path t : templates) {
            String rel = in.relativize(t).toString().replace('\\', '/');
            String dir = rel.contains("/") ? rel.substring(0, rel.lastIndexOf('/') + 1) : "";
            String name = rel.substring(dir.length(), rel.length() - ".tmpl".length());
            if (!name.startsWith("Type")) {
                throw new IllegalArgumentException(rel + ": a template's name starts with Type (TypeColumn.java.tmpl)");
            }
            List<String> lines = Files.readAllLines(t, StandardCharsets.UTF_8);
            for (Map<String, String> type : TYPES) {
                String prim = type.get("$type$");
                String text = expand(rel, lines, prim);
                if (text == null) {
                    continue; // not one of the template's types
                }
                for (Map.Entry<String, String> e : type.entrySet()) {
                    text = text.replace(e.getKey(), e.getValue());
                }
                Path target = out.resolve(dir + type.get("$Type$") + name.substring("Type".length()));
                Files.createDirectories(target.getParent());
                byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                // unchanged files keep their time stamp, so the compiler's stale check stays quiet
                if (!Files.exists(target) || !java.util.Arrays.equals(Files.readAllBytes(target), bytes)) {
                    Files.write(target, bytes);
                }
                files++;
            }
        }
        System.out.println("Expand: " + templates.size() + " templates, " + files + " files in " + out);
    }

    /** The template's lines for one primitive with the directives applied, or null when the template is not for it. */
    private static String expand(String rel, List<String> lines, String prim) {
        StringBuilder sb = new StringBuilder();
        sb.append("// GENERATED from src/main/templates/").append(rel).append(" for ").append(prim)
                .append(" by src/main/templates/Expand.java: edit the template, not this file.\n");
        Deque<boolean[]> stack = new ArrayDeque<>(); // {keeping, this branch taken, parent keeping}
        boolean keep = true;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String d = line.strip();
            if (i == 0 && d.startsWith("//#types ")) {
                if (!words(d.substring("//#types ".length())).contains(prim)) {
                    return null;
                }
                continue;
            }
            if (d.startsWith("//#if ")) {
                boolean match = words(d.substring("//#if ".length())).contains(prim);
                stack.push(new boolean[] {keep, match});
                keep = keep && match;
            } else if (d.equals("//#else")) {
                boolean[] top = require(stack, rel, i);
                keep = top[0] && !top[1];
            } else if (d.equals("//#endif")) {
                keep = require(stack, rel, i)[0];
                stack.pop();
            } else if (d.startsWith("//#")) {
                throw new IllegalArgumentException(rel + ":" + (i + 1) + ": unknown directive " + d);
            } else if (keep) {
                sb.append(line).append('\n');
            }
        }
        if (!stack.isEmpty()) {
            throw new IllegalArgumentException(rel + ": //#if without //#endif");
        }
        return sb.toString();
    }

    private static boolean[] require(Deque<boolean[]> stack, String rel, int i) {
        if (stack.isEmpty()) {
            throw new IllegalArgumentException(rel + ":" + (i + 1) + ": directive without //#if");
        }
        return stack.peek();
    }

    private static List<String> words(String s) {
        List<String> w = new ArrayList<>();
        for (String x : s.trim().split("\\s+")) {
            w.add(x);
        }
        return w;
    }
}
