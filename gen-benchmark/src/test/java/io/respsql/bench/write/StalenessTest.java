package io.respsql.bench.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StalenessTest {

    @Test
    void infoFieldsAreReadByExactName() {
        String info = "# Persistence\r\nrdb_saves:12\r\nrdb_bgsave_in_progress:0\r\nrdb_last_save_time:1796102417\r\n";
        assertEquals(12, Staleness.field(info, "rdb_saves"));
        assertEquals(0, Staleness.field(info, "rdb_bgsave_in_progress"));
        assertEquals(-1, Staleness.field(info, "rdb_save"), "a prefix of a field is not the field");
        assertEquals(-1, Staleness.field("", "rdb_saves"));
    }

    @Test
    void rawRepliesAreShownWithTheirLineEndsAndLength() {
        String shown = Staleness.show(":42\r\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(":42\\r\\n (5 bytes)", shown);
        String longer = Staleness.show(("$500\r\n" + "x".repeat(500) + "\r\n").getBytes(StandardCharsets.UTF_8));
        assertTrue(longer.endsWith("... (508 bytes)"), longer);
    }
}
