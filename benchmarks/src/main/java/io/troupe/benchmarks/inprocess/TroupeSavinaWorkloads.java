package io.troupe.benchmarks.inprocess;

import java.util.SplittableRandom;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.TroupeRuntime;
import io.troupe.benchmarks.inprocess.SavinaMessages.Arrange;
import io.troupe.benchmarks.inprocess.SavinaMessages.Ask;
import io.troupe.benchmarks.inprocess.SavinaMessages.Change;
import io.troupe.benchmarks.inprocess.SavinaMessages.Meet;
import io.troupe.benchmarks.inprocess.SavinaMessages.Start;
import io.troupe.benchmarks.inprocess.SavinaMessages.Token;

/**
 * The Savina-shaped workloads ({@link WorkloadKind#RING}, {@link WorkloadKind#CHAMENEOS},
 * {@link WorkloadKind#BIG}, {@link WorkloadKind#FORK_JOIN}) written with Troupe's API, as a plugin author
 * writes actors, with the runtime's default options (default mailboxes, which each round stays within).
 * {@link PekkoSavinaWorkloads} is the same on Pekko, message for message.
 *
 * <p><b>Threading:</b> the factory methods run on the benchmark thread; the actors run on Troupe's
 * workers, one message at a time each, so their fields need no synchronisation.
 */
final class TroupeSavinaWorkloads {

    private TroupeSavinaWorkloads() {
    }

    static Workload ring(TroupeRuntime runtime) {
        ActorRef[] refs = new ActorRef[WorkloadKind.RING_ACTORS];
        for (int i = 0; i < refs.length; i++) {
            int index = i;
            refs[i] = runtime.spawn(() -> new RingMember(refs, index), ActorOptions.defaults());
        }
        return () -> {
            RoundSignal round = new RoundSignal(1);
            refs[0].tell(new Token(round, WorkloadKind.RING_HOPS - 1), null);
            round.await();
        };
    }

    static Workload chameneos(TroupeRuntime runtime) {
        ActorRef broker = runtime.spawn(() -> new Broker(WorkloadKind.CHAMENEOS_CREATURES), ActorOptions.defaults());
        ActorRef[] creatures = new ActorRef[WorkloadKind.CHAMENEOS_CREATURES];
        for (int i = 0; i < creatures.length; i++) {
            int colour = i % 3;
            creatures[i] = runtime.spawn(() -> new Creature(broker, colour), ActorOptions.defaults());
        }
        return () -> {
            RoundSignal round = new RoundSignal(1);
            broker.tell(new Arrange(round, WorkloadKind.CHAMENEOS_MEETINGS), null);
            for (ActorRef creature : creatures) {
                creature.tell(SavinaMessages.GO, null);
            }
            round.await();
        };
    }

    static Workload big(TroupeRuntime runtime) {
        ActorRef[] refs = new ActorRef[WorkloadKind.BIG_ACTORS];
        for (int i = 0; i < refs.length; i++) {
            int index = i;
            refs[i] = runtime.spawn(() -> new BigMember(index, refs), ActorOptions.defaults());
        }
        return () -> {
            RoundSignal round = new RoundSignal(refs.length);
            Start start = new Start(round);
            for (ActorRef ref : refs) {
                ref.tell(start, null); // publishes refs[], complete by now, to each member
            }
            round.await();
        };
    }

    static Workload forkJoin(TroupeRuntime runtime) {
        ActorRef[] workers = new ActorRef[WorkloadKind.FORK_JOIN_ACTORS];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = runtime.spawn(ForkJoinWorker::new, ActorOptions.defaults());
        }
        return () -> {
            RoundSignal round = new RoundSignal(workers.length);
            Start start = new Start(round);
            for (ActorRef worker : workers) {
                worker.tell(start, null);
            }
            for (int task = 0; task < WorkloadKind.FORK_JOIN_TASKS; task++) {
                for (ActorRef worker : workers) {
                    worker.tell(SavinaMessages.TASK, null);
                }
            }
            round.await();
        };
    }

    /**
     * Passes the token on to the next member, one hop fewer; ends the round when no hop is left. The ring's
     * array is complete before the first token, whose tell publishes it.
     */
    private static final class RingMember implements Actor {
        private final ActorRef[] ring;
        private final int index;
        private ActorRef next;

        RingMember(ActorRef[] ring, int index) {
            this.ring = ring;
            this.index = index;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            Token token = (Token) message;
            if (token.hopsLeft() == 0) {
                token.round().done();
                return;
            }
            if (next == null) {
                next = ring[(index + 1) % ring.length];
            }
            next.tell(new Token(token.round(), token.hopsLeft() - 1), ctx.self());
        }
    }

    /** Pairs the creatures that ask, two at a time, until the round's meetings are arranged; then rests them. */
    private static final class Broker implements Actor {
        private final int creatures;
        private RoundSignal round;
        private int meetingsLeft;
        private int resting;
        private ActorRef waiting;
        private int waitingColour;

        Broker(int creatures) {
            this.creatures = creatures;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof Arrange arrange) {
                round = arrange.round();
                meetingsLeft = arrange.meetings();
                resting = 0;
                return;
            }
            Ask ask = (Ask) message;
            ActorRef sender = ctx.sender();
            if (meetingsLeft == 0) {
                sender.tell(SavinaMessages.REST, ctx.self());
                if (++resting == creatures) {
                    round.done();
                }
            } else if (waiting == null) {
                waiting = sender;
                waitingColour = ask.colour();
            } else {
                sender.tell(new Meet(waiting, waitingColour), ctx.self());
                waiting = null;
                meetingsLeft--;
            }
        }
    }

    /** Asks the broker for partners; on meeting one, both take the complement of their colours and ask again. */
    private static final class Creature implements Actor {
        private final ActorRef broker;
        private int colour;

        Creature(ActorRef broker, int colour) {
            this.broker = broker;
            this.colour = colour;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof Meet meet) {
                ((ActorRef) meet.partner()).tell(new Change(colour), ctx.self());
                colour = SavinaMessages.complement(colour, meet.colour());
                broker.tell(new Ask(colour), ctx.self());
            } else if (message instanceof Change change) {
                colour = SavinaMessages.complement(colour, change.colour());
                broker.tell(new Ask(colour), ctx.self());
            } else if (message == SavinaMessages.GO) {
                broker.tell(new Ask(colour), ctx.self());
            }
            // REST: nothing until the next round's GO
        }
    }

    /** Pings a random peer, one ping at a time, until its pings of the round are answered; answers every ping. */
    private static final class BigMember implements Actor {
        private final ActorRef[] peers;
        private final SplittableRandom random;
        private RoundSignal round;
        private int pongs;

        BigMember(int index, ActorRef[] peers) {
            this.peers = peers;
            this.random = new SplittableRandom(index);
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message == SavinaMessages.PING) {
                ctx.reply(SavinaMessages.PONG);
            } else if (message == SavinaMessages.PONG) {
                if (++pongs == WorkloadKind.BIG_PINGS) {
                    round.done();
                } else {
                    ping(ctx);
                }
            } else if (message instanceof Start start) {
                round = start.round();
                pongs = 0;
                ping(ctx);
            }
        }

        private void ping(ActorContext ctx) {
            peers[random.nextInt(peers.length)].tell(SavinaMessages.PING, ctx.self());
        }
    }

    /** Computes each task; ends its part of the round after the round's tasks. */
    private static final class ForkJoinWorker implements Actor {
        private RoundSignal round;
        private int done;
        private double result;

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof Start start) {
                round = start.round();
                done = 0;
                return;
            }
            result += SavinaMessages.compute(done + result % 7);
            if (++done == WorkloadKind.FORK_JOIN_TASKS) {
                round.done();
            }
        }
    }
}
