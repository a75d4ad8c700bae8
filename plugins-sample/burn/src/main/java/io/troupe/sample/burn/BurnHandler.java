package io.troupe.sample.burn;

import java.nio.charset.StandardCharsets;

import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.Failure;
import io.troupe.api.Handler;
import io.troupe.api.Message;
import io.troupe.api.Poolable;

/**
 * The {@code burn} handler: a {@link Message} whose content is a number of microseconds in decimal
 * ASCII (for example {@code 5000}) keeps its worker busy computing for that long, measured on the
 * monotonic clock, and is then answered with its own content. It never sleeps or blocks: the time is
 * spent on the CPU, the way a handler with real work to do would spend it.
 *
 * <p>Poolable (4 to 16 members per tenant), so that one tenant's burn requests can occupy every
 * worker of a small machine at once, as a stateless compute-heavy handler would.
 *
 * <p>Content that is not a decimal number from 0 to {@value #MAX_MICROS} is answered with
 * {@code bad.request}, naming the content and the bounds.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; it keeps
 * no state. Each actor it returns runs on one worker at a time; its only state is the result of its
 * last computation, kept so that the work cannot be optimised away.
 */
@Component(service = ActorFactory.class)
@Handler("burn")
@Poolable(min = 4, max = 16)
public final class BurnHandler implements ActorFactory {

    /** The longest burn one message may ask for: 10 seconds. */
    static final long MAX_MICROS = 10_000_000L;

    /** Rounds of arithmetic between two looks at the clock: well under a microsecond. */
    private static final int ROUNDS_PER_CHECK = 64;

    @Override
    public Actor create() {
        return new Actor() {
            /** The last computation's result: written so that the loop has an effect. */
            private long mixed = 1;

            @Override
            public void receive(ActorContext ctx, Object message) {
                if (!(message instanceof Message request)) {
                    ctx.reply(Failure.badRequest("burn expects a Message, got " + message.getClass().getName()));
                    return;
                }
                long micros = parseMicros(request.content());
                if (micros < 0) {
                    ctx.reply(Failure.badRequest("burn expects a number of microseconds from 0 to " + MAX_MICROS
                            + " in decimal ASCII, got '" + new String(request.content(), StandardCharsets.UTF_8)
                            + "'"));
                    return;
                }
                mixed = burn(micros * 1_000L, mixed);
                ctx.reply(request.content());
            }
        };
    }

    /**
     * Computes (a xorshift sequence) until {@code nanos} have passed on {@link System#nanoTime()}.
     *
     * @return the last value of the sequence started from {@code seed}
     */
    static long burn(long nanos, long seed) {
        long x = seed == 0 ? 1 : seed;
        long deadline = System.nanoTime() + nanos;
        do {
            for (int i = 0; i < ROUNDS_PER_CHECK; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        } while (System.nanoTime() - deadline < 0);
        return x;
    }

    /** The microseconds in {@code content}, or -1 when it is not a decimal number within the bounds. */
    static long parseMicros(byte[] content) {
        if (content.length == 0 || content.length > 8) {
            return -1;
        }
        long value = 0;
        for (byte digit : content) {
            if (digit < '0' || digit > '9') {
                return -1;
            }
            value = value * 10 + (digit - '0');
        }
        return value <= MAX_MICROS ? value : -1;
    }
}
