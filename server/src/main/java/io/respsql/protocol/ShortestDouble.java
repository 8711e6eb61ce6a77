package io.respsql.protocol;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;

/**
 * The text of a double in shortest round-trip form: the fewest significant digits that parse
 * back to the same double, the closest such decimal to the exact value when several have that
 * length (at least two digits, as Java writes {@code d.dE..}). This is what Java 19+'s
 * {@code Double.toString} returns (JDK-4511638). Java 17's does not always: it can give one digit
 * too many ({@code 8.0063187671350336E17} for {@code 8.006318767135034E17}, about 2% of random
 * doubles), so the typed reply form uses Raffaello Giulietti's Schubfach, the algorithm Java 19
 * adopted, as shipped in jackson-core. The 2010 reply form keeps {@code Double.toString}, so its
 * replies stay byte-identical.
 */
public final class ShortestDouble {
    private ShortestDouble() {
    }

    /** Java's layout ({@code 0.1}, {@code 1.0E21}, {@code -0.0}, {@code 4.9E-324}) with the shortest digits. */
    public static String text(double v) {
        return DoubleToDecimal.toString(v);
    }
}
