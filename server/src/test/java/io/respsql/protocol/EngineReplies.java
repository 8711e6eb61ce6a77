package io.respsql.protocol;

import io.respsql.engine.SqlEngine;
import io.respsql.result.Outcome;

import java.util.List;

/** For tests that check replies: runs a statement as the SQL command does, 2010 rows and its outcome's reply into a writer. */
public final class EngineReplies {
    private EngineReplies() {
    }

    public static Outcome run(SqlEngine engine, String sql, RespWriter out) {
        long mark = out.mark();
        Outcome o = engine.execute(sql, new Rows2010().on(out));
        OutcomeReply.write(out, mark, o);
        return o;
    }

    public static Outcome runPrepared(SqlEngine engine, String name, List<String> values, RespWriter out) {
        long mark = out.mark();
        Outcome o = engine.executePrepared(name, values, new Rows2010().on(out), null);
        OutcomeReply.write(out, mark, o);
        return o;
    }
}
