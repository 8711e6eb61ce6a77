package io.respsql.expr;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * PostgreSQL's regular expression functions (textfn; issue 25): regexp_replace, regexp_count,
 * regexp_instr, regexp_like, regexp_substr, and the {@code ~}/{@code ~*} operators' matcher.
 *
 * <p>PostgreSQL's patterns are ARE (Spencer's advanced regular expressions); they run here on
 * {@link java.util.regex} after {@link #translate}: bracket classes ({@code [[:alpha:]]}), ARE's
 * escapes ({@code \m \M \y \Y \Z \A \B}, {@code \x...}, backslash-u, backslash-U), {@code $} as the
 * end of the text, {@code .} matching a newline unless newline-sensitive, and the flags
 * ({@code g i c n m s p w x q t}). What would mean something else in Java or cannot be given
 * PostgreSQL's meaning is refused with 2201B rather than answered differently: possessive
 * quantifiers, back references beyond 9, collating elements, embedded options past the start,
 * BRE/ERE flavours ({@code b}, {@code e}), and a pattern mixing greedy and non-greedy quantifiers
 * (ARE gives the whole pattern the first quantifier's preference; Java decides per quantifier).
 * POSIX's leftmost-longest rule: a greedy pattern with alternation or an optional part is
 * extended at the match's start to the longest text the pattern matches there.
 *
 * <p>Work is bounded: the text is read through a {@link CharSequence} that calls the statement's
 * {@link Cancellation#check()} every 4,096 characters read, so catastrophic backtracking ends at
 * the statement timeout or the event loop's bound with the statement's error, never holds the loop.
 */
public final class RegexFunctions {
    private RegexFunctions() {
    }

    static final Set<String> NAMES = Set.of("REGEXP_REPLACE", "REGEXP_COUNT", "REGEXP_INSTR", "REGEXP_LIKE", "REGEXP_SUBSTR",
            "SIMILAR_TO_MATCH", "OVERLAY");

    /** A pattern's flags as PostgreSQL reads them. */
    static final class Flags {
        boolean global;
        boolean caseless;
        /** '.' and negated brackets do not match a newline. */
        boolean dotNoNewline;
        /** '^' and '$' match at newlines. */
        boolean lineAnchors;
        boolean expanded;
        boolean literal;

        static Flags parse(String f) {
            Flags r = new Flags();
            if (f == null) {
                return r;
            }
            for (int i = 0; i < f.length(); i++) {
                char c = f.charAt(i);
                switch (c) {
                    case 'g' -> r.global = true;
                    case 'i' -> r.caseless = true;
                    case 'c' -> r.caseless = false;
                    case 'n', 'm' -> {
                        r.dotNoNewline = true;
                        r.lineAnchors = true;
                    }
                    case 's' -> {
                        r.dotNoNewline = false;
                        r.lineAnchors = false;
                    }
                    case 'p' -> {
                        r.dotNoNewline = true;
                        r.lineAnchors = false;
                    }
                    case 'w' -> {
                        r.dotNoNewline = false;
                        r.lineAnchors = true;
                    }
                    case 'x' -> r.expanded = true;
                    case 't' -> r.expanded = false;
                    case 'q' -> r.literal = true;
                    case 'b', 'e' -> throw new SqlException(SqlState.INVALID_REGULAR_EXPRESSION,
                            "regular expression flavour '" + c + "' (BRE/ERE) is not supported; only ARE");
                    default -> throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid regular expression option: \"" + c + "\"");
                }
            }
            return r;
        }
    }

    /** A compiled pattern and whether matches must be extended to the longest (POSIX). */
    record Compiled(Pattern pattern, boolean longest) {
    }

    private static final Set<String> CLASSES = Set.of("alpha", "digit", "alnum", "upper", "lower", "space", "punct",
            "xdigit", "cntrl", "print", "graph", "blank", "word");

    private static SqlException invalid(String why) {
        return new SqlException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: " + why);
    }

    /** ARE {@code re} with {@code flags} as a Java pattern; 2201B when it is invalid or has no Java equivalent. */
    static Compiled compile(String re, Flags flags) {
        if (re.startsWith("***=")) {
            flags.literal = true;
            re = re.substring(4);
        } else if (re.startsWith("***:")) {
            re = re.substring(4);
        }
        if (!flags.literal && re.startsWith("(?") && re.length() > 2 && Character.isLetter(re.charAt(2))) {
            int close = re.indexOf(')');
            if (close < 0) {
                throw invalid("unterminated embedded options");
            }
            String opts = re.substring(2, close);
            Flags embedded = Flags.parse(opts);
            flags.caseless |= embedded.caseless && opts.indexOf('c') < 0;
            if (opts.indexOf('c') >= 0) {
                flags.caseless = embedded.caseless;
            }
            flags.dotNoNewline = opts.matches(".*[nmsp w].*") ? embedded.dotNoNewline : flags.dotNoNewline;
            flags.lineAnchors = opts.matches(".*[nmspw].*") ? embedded.lineAnchors : flags.lineAnchors;
            flags.expanded |= embedded.expanded;
            flags.literal |= embedded.literal;
            re = re.substring(close + 1);
        }
        int f = 0;
        if (flags.caseless) {
            f |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        }
        if (flags.literal) {
            return new Compiled(Pattern.compile(re, f | Pattern.LITERAL), false);
        }
        if (!flags.dotNoNewline) {
            f |= Pattern.DOTALL;
        }
        if (flags.lineAnchors) {
            f |= Pattern.MULTILINE | Pattern.UNIX_LINES;
        }
        if (flags.expanded) {
            f |= Pattern.COMMENTS;
        }
        StringBuilder out = new StringBuilder(re.length() + 16);
        boolean[] lazyGreedy = new boolean[2];
        boolean longest = translate(re, flags, out, lazyGreedy);
        if (lazyGreedy[0] && lazyGreedy[1]) {
            throw invalid("a pattern mixing greedy and non-greedy quantifiers is not supported (PostgreSQL's preference rules differ from Java's)");
        }
        try {
            return new Compiled(Pattern.compile(out.toString(), f), longest && !lazyGreedy[0]);
        } catch (PatternSyntaxException e) {
            throw invalid(e.getDescription());
        } catch (StackOverflowError e) {
            throw invalid("pattern too complex");
        }
    }

    /**
     * Appends the Java form of ARE {@code re}; {@code lazyGreedy[0]} set when a non-greedy
     * quantifier occurs, [1] a greedy one. Returns whether a match may have a longer alternative
     * at its start (alternation or an optional part), so POSIX's longest match must be looked for.
     */
    static boolean translate(String re, Flags flags, StringBuilder out, boolean[] lazyGreedy) {
        boolean alternatives = false;
        int n = re.length();
        int i = 0;
        boolean lastAtom = false;
        while (i < n) {
            char c = re.charAt(i);
            if (c == '\\') {
                if (i + 1 >= n) {
                    throw invalid("invalid escape \\ sequence");
                }
                i = escape(re, i + 1, out, false);
                lastAtom = true;
                continue;
            }
            if (c == '[') {
                i = bracket(re, i, flags, out);
                lastAtom = true;
                continue;
            }
            switch (c) {
                case '$':
                    out.append(flags.lineAnchors ? "$" : "\\z");
                    lastAtom = false;
                    i++;
                    continue;
                case '.':
                    out.append('.');
                    lastAtom = true;
                    i++;
                    continue;
                case '|':
                    alternatives = true;
                    out.append('|');
                    lastAtom = false;
                    i++;
                    continue;
                case '(':
                    if (i + 1 < n && re.charAt(i + 1) == '?') {
                        String rest = re.substring(i + 2, Math.min(n, i + 5));
                        if (rest.startsWith(":") || rest.startsWith("=") || rest.startsWith("!")) {
                            out.append("(?").append(rest.charAt(0));
                            i += 3;
                        } else if (rest.startsWith("<=") || rest.startsWith("<!")) {
                            out.append("(?").append(rest, 0, 2);
                            i += 4;
                        } else {
                            throw invalid("quantifier operand invalid");
                        }
                    } else {
                        out.append('(');
                        i++;
                    }
                    lastAtom = false;
                    continue;
                case ')':
                    out.append(')');
                    lastAtom = true;
                    i++;
                    continue;
                case '*':
                case '+':
                case '?':
                case '{': {
                    int end = i + 1;
                    if (c == '{') {
                        int close = re.indexOf('}', i);
                        if (close < 0 || !re.substring(i + 1, close).matches("\\d+(,\\d*)?")) {
                            if (!lastAtom) {
                                throw invalid("quantifier operand invalid");
                            }
                            throw invalid("invalid repetition count(s)");
                        }
                        end = close + 1;
                    }
                    if (!lastAtom) {
                        throw invalid("quantifier operand invalid");
                    }
                    out.append(re, i, end);
                    if (c == '?' || c == '*' || (c == '{' && re.substring(i + 1, end - 1).startsWith("0"))) {
                        alternatives = true; // an optional part: the longest match may use it or not
                    }
                    if (end < n && re.charAt(end) == '?') {
                        lazyGreedy[0] = true;
                        out.append('?');
                        end++;
                    } else {
                        lazyGreedy[1] = true;
                    }
                    if (end < n && (re.charAt(end) == '+' || re.charAt(end) == '*' || re.charAt(end) == '?' || re.charAt(end) == '{')) {
                        throw invalid("quantifier operand invalid");
                    }
                    i = end;
                    lastAtom = false;
                    continue;
                }
                case '^':
                    out.append('^');
                    lastAtom = false;
                    i++;
                    continue;
                default:
                    if (c == '}' || c == ']') {
                        out.append('\\');
                    }
                    out.appendCodePoint(re.codePointAt(i));
                    i += Character.charCount(re.codePointAt(i));
                    lastAtom = true;
            }
        }
        return alternatives;
    }

    /** Translates the escape whose letter is at {@code i} (after the backslash); returns the index after it. */
    private static int escape(String re, int i, StringBuilder out, boolean inBracket) {
        char e = re.charAt(i);
        switch (e) {
            case 'd', 'D', 's', 'S', 'w', 'W', 'n', 't', 'r', 'f':
                out.append('\\').append(e);
                return i + 1;
            case 'v':
                out.append("\\x0B");
                return i + 1;
            case 'a':
                out.append("\\x07");
                return i + 1;
            case 'e':
                out.append("\\x1B");
                return i + 1;
            case 'b':
                out.append("\\x08");
                return i + 1;
            case 'B':
                out.append("\\\\");
                return i + 1;
            case 'x', 'u', 'U': {
                int max = e == 'x' ? 8 : e == 'u' ? 4 : 8;
                int j = i + 1;
                while (j < re.length() && j - i - 1 < max && Character.digit(re.charAt(j), 16) >= 0) {
                    j++;
                }
                if (j == i + 1 || (e != 'x' && j - i - 1 != max)) {
                    throw invalid("invalid escape \\ sequence");
                }
                out.append("\\x{").append(re, i + 1, j).append('}');
                return j;
            }
            case 'c':
                if (i + 1 >= re.length()) {
                    throw invalid("invalid escape \\ sequence");
                }
                out.append("\\x").append(String.format("%02X", re.charAt(i + 1) & 0x1F));
                return i + 2;
            default:
                break;
        }
        if (!inBracket) {
            switch (e) {
                case 'm':
                    out.append("\\b(?=\\w)");
                    return i + 1;
                case 'M':
                    out.append("\\b(?<=\\w)");
                    return i + 1;
                case 'y':
                    out.append("\\b");
                    return i + 1;
                case 'Y':
                    out.append("\\B");
                    return i + 1;
                case 'A':
                    out.append("\\A");
                    return i + 1;
                case 'Z':
                    out.append("\\z");
                    return i + 1;
                default:
                    break;
            }
            if (e >= '1' && e <= '9') {
                if (i + 1 < re.length() && Character.isDigit(re.charAt(i + 1))) {
                    throw invalid("back references beyond \\9 are not supported");
                }
                out.append('\\').append(e);
                return i + 1;
            }
        }
        if (Character.isLetterOrDigit(e)) {
            throw invalid("invalid escape \\ sequence");
        }
        out.append('\\').appendCodePoint(re.codePointAt(i));
        return i + Character.charCount(re.codePointAt(i));
    }

    /** Translates the bracket expression starting at {@code i} ('['); returns the index after its ']'. */
    private static int bracket(String re, int i, Flags flags, StringBuilder out) {
        int n = re.length();
        int j = i + 1;
        out.append('[');
        if (j < n && re.charAt(j) == '^') {
            out.append('^');
            if (flags.dotNoNewline) {
                out.append("\\n");
            }
            j++;
        }
        boolean first = true;
        while (true) {
            if (j >= n) {
                throw invalid("brackets [] not balanced");
            }
            char c = re.charAt(j);
            if (c == ']' && !first) {
                out.append(']');
                return j + 1;
            }
            first = false;
            if (c == '[' && j + 1 < n && (re.charAt(j + 1) == ':' || re.charAt(j + 1) == '.' || re.charAt(j + 1) == '=')) {
                char kind = re.charAt(j + 1);
                int close = re.indexOf(kind + "]", j + 2);
                if (close < 0) {
                    throw invalid("brackets [] not balanced");
                }
                String name = re.substring(j + 2, close);
                if (kind == ':') {
                    if (!CLASSES.contains(name)) {
                        throw invalid("invalid character class");
                    }
                    out.append(name.equals("word") ? "\\w" : "\\p{" + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "}");
                    if (name.equals("xdigit")) {
                        out.setLength(out.length() - "\\p{Xdigit}".length());
                        out.append("\\p{XDigit}");
                    }
                } else if (name.codePointCount(0, name.length()) == 1) {
                    appendLiteral(out, name.codePointAt(0)); // [.x.] and [=x=] of one character: the character
                } else {
                    throw invalid("collating elements are not supported");
                }
                j = close + 2;
                continue;
            }
            if (c == '\\') {
                if (j + 1 >= n) {
                    throw invalid("brackets [] not balanced");
                }
                j = escape(re, j + 1, out, true);
                continue;
            }
            if (c == '-') {
                out.append('-');
                j++;
                continue;
            }
            int cp = re.codePointAt(j);
            appendLiteral(out, cp);
            j += Character.charCount(cp);
        }
    }

    /** A character inside a Java bracket as itself (Java's own bracket syntax escaped). */
    private static void appendLiteral(StringBuilder out, int cp) {
        if (cp == '[' || cp == ']' || cp == '&' || cp == '\\' || cp == '^') {
            out.append('\\');
        }
        out.appendCodePoint(cp);
    }

    /** The text read through the statement's cancellation: a check every 4,096 characters read. */
    static final class Checked implements CharSequence {
        private final CharSequence s;
        private final Cancellation cancel;
        private int reads;

        Checked(CharSequence s, Cancellation cancel) {
            this.s = s;
            this.cancel = cancel;
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public char charAt(int index) {
            if (cancel != null && (++reads & 4095) == 0) {
                cancel.check();
            }
            return s.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return s.subSequence(start, end);
        }

        @Override
        public String toString() {
            return s.toString();
        }
    }

    /**
     * Finds the next match at or after {@code from}; with {@code longest}, extends it to the
     * longest the pattern matches at that start (POSIX). False when none.
     */
    static boolean next(Matcher m, Compiled c, int from, int textLength) {
        if (from > textLength || !m.find(from)) {
            return false;
        }
        if (!c.longest()) {
            return true;
        }
        int start = m.start();
        int end = m.end();
        m.useTransparentBounds(true);
        m.useAnchoringBounds(false);
        for (int e = textLength; e > end; e--) {
            m.region(start, e);
            if (m.matches()) {
                return true; // m now holds the longest match and its groups
            }
        }
        m.reset();
        m.find(start);
        return true;
    }

    // ---- nodes ------------------------------------------------------------------------------------

    /** A regex function's node: text arguments read as Strings, the pattern compiled once per distinct pattern and flags. */
    abstract static class Node extends Expression {
        final String name;
        final Expression[] args;
        final TextArg[] texts;
        private String lastPattern;
        private String lastFlags;
        private Compiled lastCompiled;
        private final TextBuf out = new TextBuf();

        Node(String name, SqlType type, Expression[] args) {
            super(type);
            this.name = name;
            this.args = args;
            this.texts = new TextArg[args.length];
            for (int i = 0; i < args.length; i++) {
                texts[i] = new TextArg(args[i]);
            }
        }

        @Override
        public long relations() {
            return Eval.relations(args);
        }

        /** Never folded: a match runs where the statement's cancellation reaches it, not while binding. */
        @Override
        public boolean isConstant() {
            return false;
        }

        /** Argument {@code i} as a String, null when NULL. */
        String string(int i, EvalContext ctx) {
            byte[] b = texts[i].eval(ctx);
            if (ctx.isNull) {
                return null;
            }
            return new String(b, ctx.textOffset, ctx.textLength, StandardCharsets.UTF_8);
        }

        /** Argument {@code i} as an integer; {@code Long.MIN_VALUE} when NULL. */
        long integer(int i, EvalContext ctx) {
            long v = Eval.asLong(args[i], ctx);
            return ctx.isNull ? Long.MIN_VALUE : v;
        }

        Compiled compiled(String pattern, String flags, boolean globalAllowed) {
            if (lastCompiled != null && pattern.equals(lastPattern) && java.util.Objects.equals(flags, lastFlags)) {
                return lastCompiled;
            }
            Flags f = Flags.parse(flags);
            if (f.global && !globalAllowed) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, name.toLowerCase(Locale.ROOT)
                        + "() does not support the \"global\" option");
            }
            Compiled c = compile(pattern, f);
            lastPattern = pattern;
            lastFlags = flags;
            lastCompiled = c;
            return c;
        }

        static void positive(long v, String param) {
            if (v <= 0) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + param + "\": " + v);
            }
        }

        byte[] text(EvalContext ctx, String s) {
            out.reset();
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.put(b, 0, b.length);
            ctx.isNull = false;
            return out.result(ctx);
        }

        static int offsetOf(String s, long start) {
            int cps = s.codePointCount(0, s.length());
            if (start - 1 > cps) {
                return s.length() + 1;
            }
            return s.offsetByCodePoints(0, (int) (start - 1));
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            return evalLong(ctx);
        }

        @Override
        public String describe() {
            return Functions.describe(name.toLowerCase(Locale.ROOT), args);
        }
    }

    /** regexp_replace(source, pattern, replacement [, start [, N]] [, flags]). */
    static final class Replace extends Node {
        /** Index of the flags argument, -1 none; of start and N, -1 none. */
        final int flagsAt;
        final int startAt;
        final int nAt;

        Replace(Expression[] args, int flagsAt, int startAt, int nAt) {
            super("REGEXP_REPLACE", SqlType.TEXT, args);
            this.flagsAt = flagsAt;
            this.startAt = startAt;
            this.nAt = nAt;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            String s = string(0, ctx);
            if (s == null) {
                return null;
            }
            String p = string(1, ctx);
            if (p == null) {
                return null;
            }
            String r = string(2, ctx);
            if (r == null) {
                return null;
            }
            long start = 1;
            long nth = 1;
            if (startAt >= 0) {
                start = integer(startAt, ctx);
                if (start == Long.MIN_VALUE) {
                    return null;
                }
                positive(start, "start");
            }
            if (nAt >= 0) {
                nth = integer(nAt, ctx);
                if (nth == Long.MIN_VALUE) {
                    return null;
                }
                if (nth < 0) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"n\": " + nth);
                }
            }
            String fl = null;
            if (flagsAt >= 0) {
                fl = string(flagsAt, ctx);
                if (fl == null) {
                    return null;
                }
            }
            Compiled c = compiled(p, fl, true);
            boolean all = nAt >= 0 ? nth == 0 : Flags.parse(fl).global;
            Matcher m = c.pattern().matcher(new Checked(s, ctx.cancel));
            StringBuilder b = new StringBuilder(s.length() + 16);
            int from = offsetOf(s, start);
            int copied = 0;
            int count = 0;
            while (next(m, c, from, s.length())) {
                count++;
                int ms = m.start();
                int me = m.end();
                if (all || count == nth) {
                    b.append(s, copied, ms);
                    replacement(b, r, m, s);
                    copied = me;
                    if (!all) {
                        break;
                    }
                }
                from = me == ms ? me + 1 : me;
                if (me == ms && me < s.length() && Character.isHighSurrogate(s.charAt(me))) {
                    from++;
                }
            }
            if (copied == 0 && count == 0) {
                return text(ctx, s);
            }
            b.append(s, copied, s.length());
            return text(ctx, b.toString());
        }

        /** PostgreSQL's replacement: {@code \1}..{@code \9} a group, {@code \&} the match, {@code \\} a backslash; other text as is. */
        private static void replacement(StringBuilder b, String r, Matcher m, String s) {
            for (int i = 0; i < r.length(); i++) {
                char c = r.charAt(i);
                if (c != '\\' || i + 1 >= r.length()) {
                    b.append(c);
                    continue;
                }
                char d = r.charAt(i + 1);
                if (d >= '1' && d <= '9') {
                    int g = d - '0';
                    if (g <= m.groupCount() && m.start(g) >= 0) {
                        b.append(s, m.start(g), m.end(g));
                    }
                    i++;
                } else if (d == '&') {
                    b.append(s, m.start(), m.end());
                    i++;
                } else if (d == '\\') {
                    b.append('\\');
                    i++;
                } else {
                    b.append(c);
                }
            }
        }
    }

    /** regexp_count, regexp_instr, regexp_like, regexp_substr. */
    static class Search extends Node {
        /** Where each optional argument is (-1: absent). */
        final int startAt;
        final int nAt;
        final int endAt;
        final int flagsAt;
        final int subAt;

        Search(String name, SqlType type, Expression[] args, int startAt, int nAt, int endAt, int flagsAt, int subAt) {
            super(name, type, args);
            this.startAt = startAt;
            this.nAt = nAt;
            this.endAt = endAt;
            this.flagsAt = flagsAt;
            this.subAt = subAt;
        }

        /** Evaluates; returns false with ctx.isNull set when an argument is NULL. */
        private long run(EvalContext ctx, boolean wantText, String[] textOut) {
            String s = string(0, ctx);
            if (s == null) {
                return 0;
            }
            String p = string(1, ctx);
            if (p == null) {
                return 0;
            }
            long start = 1;
            long nth = 1;
            long endOption = 0;
            long sub = 0;
            String fl = null;
            if (startAt >= 0 && (start = integer(startAt, ctx)) == Long.MIN_VALUE) {
                return 0;
            }
            if (nAt >= 0 && (nth = integer(nAt, ctx)) == Long.MIN_VALUE) {
                return 0;
            }
            if (endAt >= 0 && (endOption = integer(endAt, ctx)) == Long.MIN_VALUE) {
                return 0;
            }
            if (flagsAt >= 0 && (fl = string(flagsAt, ctx)) == null) {
                return 0;
            }
            if (subAt >= 0 && (sub = integer(subAt, ctx)) == Long.MIN_VALUE) {
                return 0;
            }
            positive(start, "start");
            positive(nth, "n");
            if (endOption != 0 && endOption != 1) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"endoption\": " + endOption);
            }
            if (sub < 0) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"subexpr\": " + sub);
            }
            Compiled c = compiled(p, fl, false);
            Matcher m = c.pattern().matcher(new Checked(s, ctx.cancel));
            int from = offsetOf(s, start);
            ctx.isNull = false;
            if (name.equals("REGEXP_LIKE")) {
                return next(m, c, from, s.length()) ? 1 : 0;
            }
            long count = 0;
            while (next(m, c, from, s.length())) {
                count++;
                int ms = m.start();
                int me = m.end();
                if (!name.equals("REGEXP_COUNT") && count == nth) {
                    int gs = ms;
                    int ge = me;
                    if (sub > 0) {
                        if (sub > m.groupCount() || m.start((int) sub) < 0) {
                            if (wantText) {
                                ctx.isNull = true;
                            }
                            return 0;
                        }
                        gs = m.start((int) sub);
                        ge = m.end((int) sub);
                    }
                    if (wantText) {
                        textOut[0] = s.substring(gs, ge);
                        return 0;
                    }
                    int at = endOption == 1 ? ge : gs;
                    return s.codePointCount(0, at) + 1;
                }
                from = me == ms ? me + 1 : me;
            }
            if (name.equals("REGEXP_COUNT")) {
                return count;
            }
            if (wantText) {
                ctx.isNull = true;
            }
            return 0;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            return run(ctx, false, null);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            String[] t = new String[1];
            run(ctx, true, t);
            if (ctx.isNull || t[0] == null) {
                ctx.isNull = true;
                return null;
            }
            return text(ctx, t[0]);
        }
    }

    private static void arity(String name, List<Expression> args, int min, int max) {
        if (args.size() < min || args.size() > max) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + " takes " + min
                    + " to " + max + " arguments, got " + args.size());
        }
    }

    private static Expression text(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        SqlType t = e.type();
        if (t != SqlType.TEXT && t != SqlType.NULL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + " argument "
                    + (i + 1) + " must be text, not " + Expressions.pgName(t));
        }
        return e;
    }

    private static Expression integer(String name, List<Expression> args, int i) {
        Expression e = args.get(i);
        SqlType t = e.type();
        if (!t.isInteger() && t != SqlType.NULL) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + name.toLowerCase(Locale.ROOT) + " argument "
                    + (i + 1) + " must be an integer, not " + Expressions.pgName(t));
        }
        return e;
    }

    /** The node of a regex function, null when {@code name} is none of them. */
    static Expression build(String name, List<Expression> args) {
        if (!NAMES.contains(name)) {
            return null;
        }
        int n = args.size();
        Expression[] a = args.toArray(new Expression[0]);
        switch (name) {
            case "OVERLAY":
                arity(name, args, 3, 4);
                text(name, args, 0);
                text(name, args, 1);
                integer(name, args, 2);
                if (n == 4) {
                    integer(name, args, 3);
                }
                return new Overlay(a);
            case "SIMILAR_TO_MATCH":
                arity(name, args, 2, 3);
                for (int i = 0; i < n; i++) {
                    text(name, args, i);
                }
                return new Similar(a, false);
            case "REGEXP_REPLACE": {
                arity(name, args, 3, 6);
                text(name, args, 0);
                text(name, args, 1);
                text(name, args, 2);
                if (n == 3) {
                    return new Replace(a, -1, -1, -1);
                }
                if (n == 4 && !args.get(3).type().isInteger()) {
                    text(name, args, 3);
                    return new Replace(a, 3, -1, -1);
                }
                integer(name, args, 3);
                if (n >= 5) {
                    integer(name, args, 4);
                }
                if (n == 6) {
                    text(name, args, 5);
                }
                return new Replace(a, n == 6 ? 5 : -1, 3, n >= 5 ? 4 : -1);
            }
            case "REGEXP_LIKE":
                arity(name, args, 2, 3);
                text(name, args, 0);
                text(name, args, 1);
                if (n == 3) {
                    text(name, args, 2);
                }
                return new Search(name, SqlType.BOOLEAN, a, -1, -1, -1, n == 3 ? 2 : -1, -1);
            case "REGEXP_COUNT":
                arity(name, args, 2, 4);
                text(name, args, 0);
                text(name, args, 1);
                if (n >= 3) {
                    integer(name, args, 2);
                }
                if (n == 4) {
                    text(name, args, 3);
                }
                return new Search(name, SqlType.INT, a, n >= 3 ? 2 : -1, -1, -1, n == 4 ? 3 : -1, -1);
            case "REGEXP_INSTR":
                arity(name, args, 2, 7);
                text(name, args, 0);
                text(name, args, 1);
                for (int i = 2; i < n; i++) {
                    if (i == 5) {
                        text(name, args, i);
                    } else {
                        integer(name, args, i);
                    }
                }
                return new Search(name, SqlType.INT, a, n > 2 ? 2 : -1, n > 3 ? 3 : -1, n > 4 ? 4 : -1, n > 5 ? 5 : -1, n > 6 ? 6 : -1);
            default: // REGEXP_SUBSTR
                arity(name, args, 2, 6);
                text(name, args, 0);
                text(name, args, 1);
                for (int i = 2; i < n; i++) {
                    if (i == 4) {
                        text(name, args, i);
                    } else {
                        integer(name, args, i);
                    }
                }
                return new Search(name, SqlType.TEXT, a, n > 2 ? 2 : -1, n > 3 ? 3 : -1, -1, n > 4 ? 4 : -1, n > 5 ? 5 : -1);
        }
    }

    /** {@code text ~ pattern} / {@code ~*}: PostgreSQL's regex (translated, refused when it cannot be). */
    public static Expression match(Expression text, Expression pattern, boolean caseless) {
        return new Search("REGEXP_LIKE", SqlType.BOOLEAN,
                caseless ? new Expression[] {text, pattern, Literal.ofText(TextBuf.utf8("i"))} : new Expression[] {text, pattern},
                -1, -1, -1, caseless ? 2 : -1, -1) {
            @Override
            public String describe() {
                return text.describe() + (caseless ? " ~* " : " ~ ") + pattern.describe();
            }
        };
    }

    // ---- SIMILAR TO and substring's pattern forms ----

    /**
     * A SIMILAR TO pattern as ARE parts (PostgreSQL's similar_escape): {@code %} is {@code .*},
     * {@code _} is {@code .}, parentheses do not capture, the escape character quotes the next one,
     * and escape-double-quote separates up to three parts (substring's). {@code esc} null: no escape.
     */
    static List<String> similarParts(String p, String esc) {
        if (esc != null && esc.codePointCount(0, esc.length()) > 1) {
            throw new SqlException("22025", "invalid escape string");
        }
        int e = esc == null || esc.isEmpty() ? -1 : esc.codePointAt(0);
        List<String> parts = new java.util.ArrayList<>();
        StringBuilder r = new StringBuilder();
        boolean after = false;
        boolean inClass = false;
        int classPos = 0;
        for (int i = 0; i < p.length(); ) {
            int c = p.codePointAt(i);
            i += Character.charCount(c);
            if (after) {
                if (c == '"' && !inClass) {
                    if (parts.size() == 2) {
                        throw new SqlException("2200C", // PostgreSQL's invalid_use_of_escape_character
                                "SQL regular expression may not contain more than two escape-double-quote separators");
                    }
                    parts.add(r.toString());
                    r.setLength(0);
                } else {
                    r.append('\\').appendCodePoint(c);
                }
                after = false;
            } else if (c == e) {
                after = true;
            } else if (inClass) {
                if (c == '\\') {
                    r.append('\\');
                }
                r.appendCodePoint(c);
                if (c == ']' && classPos > 1) {
                    inClass = false;
                } else if (!(c == '^' && classPos == 1)) {
                    classPos++;
                }
            } else if (c == '[') {
                r.append('[');
                inClass = true;
                classPos = 1;
            } else if (c == '%') {
                r.append(".*");
            } else if (c == '_') {
                r.append('.');
            } else if (c == '(') {
                r.append("(?:");
            } else if (c == '\\' || c == '.' || c == '^' || c == '$') {
                r.append('\\').appendCodePoint(c);
            } else {
                r.appendCodePoint(c);
            }
        }
        parts.add(r.toString()); // a trailing escape character is dropped, as PostgreSQL does
        return parts;
    }

    /** {@code x SIMILAR TO p [ESCAPE e]} (BOOLEAN), or substring(x SIMILAR p ESCAPE e) (TEXT). */
    static final class Similar extends Node {
        private String lastKey;
        private Compiled[] lastParts;

        Similar(Expression[] args, boolean substring) {
            super(substring ? "SUBSTRING" : "SIMILAR_TO_MATCH", substring ? SqlType.TEXT : SqlType.BOOLEAN, args);
        }

        /** The parts compiled, whole-match anchored; null when an argument is NULL. */
        private Compiled[] parts(EvalContext ctx) {
            String p = string(1, ctx);
            if (p == null) {
                return null;
            }
            String esc = "\\";
            if (args.length == 3) {
                esc = string(2, ctx);
                if (esc == null) {
                    return null;
                }
            }
            String key = esc + "\u0000" + p;
            if (!key.equals(lastKey)) {
                List<String> ps = similarParts(p, esc);
                Compiled[] cs = new Compiled[ps.size()];
                for (int i = 0; i < cs.length; i++) {
                    cs[i] = compile(ps.get(i), new Flags());
                }
                lastParts = cs;
                lastKey = key;
            }
            return lastParts;
        }

        private static boolean whole(Compiled c, CharSequence s, int from, int to) {
            Matcher m = c.pattern().matcher(s);
            m.region(from, to);
            return m.matches();
        }

        @Override
        public long evalLong(EvalContext ctx) {
            String s = string(0, ctx);
            if (s == null) {
                return 0;
            }
            Compiled[] cs = parts(ctx);
            if (cs == null) {
                ctx.isNull = true;
                return 0;
            }
            ctx.isNull = false;
            return find(new Checked(s, ctx.cancel), cs) != null ? 1 : 0;
        }

        /** The bounds of the middle part when the text matches the parts whole (first part shortest, middle longest), else null. */
        private static int[] find(CharSequence s, Compiled[] cs) {
            int n = s.length();
            if (cs.length == 1) {
                return whole(cs[0], s, 0, n) ? new int[] {0, n} : null;
            }
            for (int i = 0; i <= n; i++) {
                if (!whole(cs[0], s, 0, i)) {
                    continue;
                }
                for (int j = n; j >= i; j--) {
                    if (whole(cs[1], s, i, j) && (cs.length == 2 ? j == n : whole(cs[2], s, j, n))) {
                        return new int[] {i, j};
                    }
                }
            }
            return null;
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            String s = string(0, ctx);
            if (s == null) {
                return null;
            }
            Compiled[] cs = parts(ctx);
            if (cs == null) {
                ctx.isNull = true;
                return null;
            }
            int[] at = find(new Checked(s, ctx.cancel), cs);
            if (at == null) {
                ctx.isNull = true;
                return null;
            }
            return text(ctx, s.substring(at[0], at[1]));
        }
    }

    /** substring(x FROM pattern): the first parenthesized part's match, or the whole match (POSIX). */
    static final class RegexSubstring extends Node {
        RegexSubstring(Expression[] args) {
            super("SUBSTRING", SqlType.TEXT, args);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            String s = string(0, ctx);
            if (s == null) {
                return null;
            }
            String p = string(1, ctx);
            if (p == null) {
                return null;
            }
            Compiled c = compiled(p, null, false);
            Matcher m = c.pattern().matcher(new Checked(s, ctx.cancel));
            if (!next(m, c, 0, s.length())) {
                ctx.isNull = true;
                return null;
            }
            int g = m.groupCount() > 0 ? 1 : 0;
            if (m.start(g) < 0) {
                ctx.isNull = true;
                return null;
            }
            return text(ctx, s.substring(m.start(g), m.end(g)));
        }
    }

    /** substring(x FROM pattern) (POSIX) or substring(x FROM pattern FOR escape) / (x SIMILAR pattern ESCAPE escape). */
    static Expression substring(List<Expression> args) {
        for (int i = 0; i < args.size(); i++) {
            text("SUBSTRING", args, i);
        }
        Expression[] a = args.toArray(new Expression[0]);
        return a.length == 2 ? new RegexSubstring(a) : new Similar(a, true);
    }

    /** overlay(x PLACING y FROM n [FOR m]): x's characters before n, y, then x from n + m (m: y's length). */
    static final class Overlay extends Node {
        Overlay(Expression[] args) {
            super("OVERLAY", SqlType.TEXT, args);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            String x = string(0, ctx);
            if (x == null) {
                return null;
            }
            String y = string(1, ctx);
            if (y == null) {
                return null;
            }
            long from = integer(2, ctx);
            if (from == Long.MIN_VALUE) {
                return null;
            }
            long count = y.codePointCount(0, y.length());
            if (args.length == 4 && (count = integer(3, ctx)) == Long.MIN_VALUE) {
                return null;
            }
            // PostgreSQL's: substring(x, 1, n - 1) || y || substring(x, n + m)
            if (from <= 0) {
                throw new SqlException("22011", "negative substring length not allowed");
            }
            int cps = x.codePointCount(0, x.length());
            long headEnd = Math.min(from - 1, cps);
            long tailFrom = Math.max(0, Math.min(from - 1 + count, cps));
            String head = x.substring(0, x.offsetByCodePoints(0, (int) headEnd));
            String tail = x.substring(x.offsetByCodePoints(0, (int) tailFrom));
            return text(ctx, head + y + tail);
        }
    }
}
