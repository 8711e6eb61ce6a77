package io.respsql.result;

/**
 * A float8 laid out as PostgreSQL 15 prints it (float8out with the shortest digits): fixed notation
 * while the decimal exponent is within [-4, 15), else {@code d.ddde+XX} / {@code de-05} (issue 25:
 * statistical aggregates print e.g. {@code -9867346917.206224}, Java's layout is {@code -9.867346917206224E9}).
 * For the values the wire's fast paths do not write (NaN and infinities excluded).
 */
public final class PgFloatText {
    private PgFloatText() {
    }

    public static String text(double v) {
        if (v == 0) {
            return 1 / v < 0 ? "-0" : "0";
        }
        String java = ShortestDouble.text(v);
        boolean neg = java.startsWith("-");
        String s = neg ? java.substring(1) : java;
        int e = s.indexOf('E');
        String mant = e < 0 ? s : s.substring(0, e);
        int exp = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
        int dot = mant.indexOf('.');
        String intPart = dot < 0 ? mant : mant.substring(0, dot);
        String frac = dot < 0 ? "" : mant.substring(dot + 1);
        String digits = intPart + frac;
        int point = intPart.length() + exp; // the decimal point after this many digits of `digits`
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits = digits.substring(lead);
        point -= lead;
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        digits = digits.substring(0, end);
        int decExp = point - 1; // exponent of the leading digit
        StringBuilder b = new StringBuilder(neg ? "-" : "");
        if (decExp < -4 || decExp >= 15) {
            b.append(digits.charAt(0));
            if (digits.length() > 1) {
                b.append('.').append(digits, 1, digits.length());
            }
            b.append('e').append(decExp < 0 ? '-' : '+');
            int a = Math.abs(decExp);
            if (a < 10) {
                b.append('0');
            }
            return b.append(a).toString();
        }
        if (point <= 0) {
            b.append("0.");
            for (int i = 0; i < -point; i++) {
                b.append('0');
            }
            return b.append(digits).toString();
        }
        if (point >= digits.length()) {
            b.append(digits);
            for (int i = digits.length(); i < point; i++) {
                b.append('0');
            }
            return b.toString();
        }
        return b.append(digits, 0, point).append('.').append(digits, point, digits.length()).toString();
    }
}
