package io.respsql.config;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConfigRewriteTest {
    /** Whatever a value holds, the rewritten line reads back as the key and exactly that value. */
    @Test
    void quotedValuesReadBackUnchanged() {
        Random rnd = new Random(42);
        String alphabet = "ab \t\"'\\\r\n\u0001\u007f\u00e9\u20ac#=";
        for (int n = 0; n < 5000; n++) {
            StringBuilder v = new StringBuilder();
            for (int len = rnd.nextInt(8); len > 0; len--) {
                v.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            String value = v.toString();
            String line = "requirepass " + ConfigRewrite.quoteIfNeeded(value);
            List<byte[]> words = SplitArgs.split(line.getBytes(StandardCharsets.UTF_8));
            assertEquals(2, words.size(), line);
            assertEquals(value, new String(words.get(1), StandardCharsets.UTF_8), line);
        }
        assertEquals("plain", ConfigRewrite.quoteIfNeeded("plain"));
        assertEquals("\"\"", ConfigRewrite.quoteIfNeeded(""));
    }

    @Test
    void renderKeepsLinesUpdatesInPlaceAndAppendsNonDefaults() throws Exception {
        ServerConfig c = new ServerConfig();
        c.option("maxclients").set("77");
        c.option("slowlog-max-len").set("5");
        String out = ConfigRewrite.render(c, List.of("# hello", "MaxClients 10", "", "maxclients 11", "rename-command A B"));
        assertEquals("# hello\nmaxclients 77\n\nrename-command A B\n" + ConfigRewrite.GENERATED + "\nslowlog-max-len 5\n", out);
        // A file already holding the marker gets no second one.
        String again = ConfigRewrite.render(c, List.of(out.split("\n")));
        assertEquals(out, again);
    }
}
