/**
 * The one encoding of actor state: {@link io.troupe.host.state.StateCodec} turns what an actor's
 * {@code exportState} returns into bytes of a documented, versioned format (docs/state-format.md) and
 * back, for the state store and anything else that keeps or moves state. Private to the host bundle.
 *
 * <pre>
 *  encode:  StateCodec ─► StateEncoder (walks the value, refuses what cannot be stored)
 *                            └─► StateBuffer (growable bytes: varints, fixed numbers, UTF-8)
 *  decode:  StateCodec (header: magic, version) ─► StateDecoder (tags ─► values)
 *                            └─► StateInput (bounds-checked reads of the same primitives)
 *  vocabulary: StateFormat (tags), ArrayComponentTypes and JavaEnums (the only types named in the bytes)
 *  errors:  StateFault (inside, collects the path on the way up) ─► UnstorableStateException,
 *           UnreadableStateException (name the actor, the type or byte, and the path)
 * </pre>
 *
 * <p><b>Threading:</b> the codec is stateless and may be used from any thread; each call makes its own
 * encoder or decoder, confined to the calling thread.
 */
package io.troupe.host.state;
