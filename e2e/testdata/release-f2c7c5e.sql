--
-- PostgreSQL database dump
--

\restrict WQ3kkyWs2t2LHhzuo95ZNLfo0WkFaTXbZ2rbmFL2htTqMjxn1J9q8oq8z4PdDFp

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: public; Type: SCHEMA; Schema: -; Owner: -
--

-- *not* creating schema, since initdb creates it


--
-- Name: SCHEMA public; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON SCHEMA public IS '';


--
-- Name: claim_board_rewards(text[], text[], text[], text[], timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.claim_board_rewards(p_boards text[], p_keys text[], p_players text[], p_claims text[], p_now timestamp with time zone, OUT i bigint, OUT status text, OUT starts_at timestamp with time zone, OUT claim_id text, OUT claimed_at timestamp with time zone, OUT rank integer, OUT score integer, OUT subscore integer, OUT tier text, OUT participants integer, OUT reached_at timestamp with time zone, OUT player_name text) RETURNS SETOF record
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    AS $$
DECLARE
    v_board  TEXT;
    v_key    TEXT;
    v_status TEXT;
    v_starts TIMESTAMPTZ;
    v_id     INTEGER;
    v_count  INTEGER;
    v_bucket DATE;
BEGIN
    FOR v_board, v_key IN
        SELECT DISTINCT c.board COLLATE "C", c.key COLLATE "C" FROM unnest(p_boards, p_keys) AS c (board, key)
        ORDER BY 1, 2
    LOOP
        SELECT p.id, p.status, p.starts_at INTO v_id, v_status, v_starts
            FROM periods p WHERE p.board_id = v_board AND p.key = v_key;
        IF NOT FOUND THEN
            CONTINUE;
        END IF;
        IF v_status = 'CLOSED' THEN
            -- The period's claims lock, shared: db.periodClaimsLockClass
            -- (0x6c627263, "lbrc") and the period's id.
            PERFORM pg_advisory_xact_lock_shared(1818391139, v_id);
            SELECT p.status, COALESCE(p.participants, 0), p.final_bucket, p.starts_at
                INTO v_status, v_count, v_bucket, v_starts
                FROM periods p WHERE p.board_id = v_board AND p.id = v_id;
            IF NOT FOUND THEN
                CONTINUE; -- retention dropped it while the claims waited
            END IF;
        END IF;
        IF v_status <> 'CLOSED' THEN
            RETURN QUERY SELECT c.i, v_status, v_starts, NULL::TEXT, NULL::TIMESTAMPTZ, NULL::INTEGER, NULL::INTEGER,
                    NULL::INTEGER, NULL::TEXT, NULL::INTEGER, NULL::TIMESTAMPTZ, NULL::TEXT
                FROM unnest(p_boards, p_keys) WITH ORDINALITY AS c (board, key, i)
                WHERE c.board = v_board AND c.key = v_key;
            CONTINUE;
        END IF;
        IF v_bucket IS NULL THEN
            RAISE EXCEPTION 'period % is CLOSED with no final ranks', v_id;
        END IF;
        INSERT INTO claims AS cl (board_id, period_key, player_id, claim_id, claimed_at, rank, score, subscore,
                tier, participants, reached_at, period_id)
            SELECT v_board, v_key, c.player, c.claim, p_now, f.rank, f.score, f.subscore,
                (SELECT t.tier->>'name' FROM boards b, jsonb_array_elements(b.tiers) WITH ORDINALITY AS t (tier, n)
                    WHERE b.id = v_board AND v_count > 0 AND f.rank > 0
                        AND (t.tier->>'topPercent')::float8 >= 100 * f.rank::float8 / v_count::float8
                    ORDER BY t.n LIMIT 1),
                v_count, f.reached_at, v_id
            FROM unnest(p_boards, p_keys, p_players, p_claims) WITH ORDINALITY AS c (board, key, player, claim, i)
            CROSS JOIN LATERAL (SELECT f.rank, f.score, f.subscore, f.reached_at FROM board_final_ranks f
                WHERE f.bucket = v_bucket AND f.period_id = v_id AND f.player_id = c.player LIMIT 1) f
            WHERE c.board = v_board AND c.key = v_key
            ORDER BY c.i
            ON CONFLICT ON CONSTRAINT claims_pkey DO NOTHING;
        RETURN QUERY SELECT c.i, v_status, v_starts, cl.claim_id, cl.claimed_at, cl.rank, cl.score, cl.subscore,
                cl.tier, cl.participants, cl.reached_at,
                CASE WHEN cl.claim_id IS NOT NULL THEN (SELECT pl.name FROM players pl WHERE pl.id = c.player) END
            FROM unnest(p_boards, p_keys, p_players) WITH ORDINALITY AS c (board, key, player, i)
            LEFT JOIN LATERAL (SELECT cl.claim_id, cl.claimed_at, cl.rank, cl.score, cl.subscore, cl.tier,
                    cl.participants, cl.reached_at FROM claims cl
                WHERE cl.board_id = v_board AND cl.period_key = v_key AND cl.player_id = c.player LIMIT 1) cl ON true
            WHERE c.board = v_board AND c.key = v_key;
    END LOOP;
END
$$;


--
-- Name: delete_period_claims(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.delete_period_claims() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM claims WHERE board_id = OLD.board_id AND period_id = OLD.id;
    RETURN OLD;
END
$$;


SET default_tablespace = '';

--
-- Name: board_final_ranks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.board_final_ranks (
    bucket date NOT NULL,
    period_id integer NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    subscore integer,
    reached_at timestamp with time zone NOT NULL,
    metadata jsonb
)
PARTITION BY LIST (bucket);


SET default_table_access_method = heap;

--
-- Name: board_final_ranks_2026_11; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.board_final_ranks_2026_11 (
    bucket date NOT NULL,
    period_id integer NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    subscore integer,
    reached_at timestamp with time zone NOT NULL,
    metadata jsonb
);


--
-- Name: board_removed_players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.board_removed_players (
    period_id integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: board_score_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.board_score_events (
    board_id text NOT NULL COLLATE pg_catalog."C",
    event_id text NOT NULL COLLATE pg_catalog."C",
    period_id integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    mode text NOT NULL,
    value integer NOT NULL,
    subscore integer,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone NOT NULL,
    status text NOT NULL,
    old_score integer,
    new_score integer NOT NULL,
    CONSTRAINT board_score_events_mode_check CHECK ((mode = ANY (ARRAY['ADD'::text, 'SET'::text, 'BEST'::text]))),
    CONSTRAINT board_score_events_status_check CHECK ((status = ANY (ARRAY['APPLIED'::text, 'UNCHANGED'::text])))
);


--
-- Name: board_scores; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.board_scores (
    period_id integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    subscore integer,
    sort_score bigint NOT NULL,
    sort_subscore bigint NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    metadata jsonb
);


--
-- Name: boards; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.boards (
    id text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL,
    reset text NOT NULL,
    sort_order text NOT NULL,
    min_score integer NOT NULL,
    max_score integer NOT NULL,
    tiebreak text NOT NULL,
    time_zone text NOT NULL,
    close_grace_seconds integer NOT NULL,
    starts_at timestamp with time zone NOT NULL,
    ends_at timestamp with time zone,
    retain_periods integer,
    tiers jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT boards_check CHECK ((ends_at > starts_at)),
    CONSTRAINT boards_check1 CHECK ((min_score <= max_score)),
    CONSTRAINT boards_close_grace_seconds_check CHECK ((close_grace_seconds >= 0)),
    CONSTRAINT boards_id_check CHECK ((id ~ '^[a-z0-9_.-]{1,64}$'::text)),
    CONSTRAINT boards_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 128))),
    CONSTRAINT boards_reset_check CHECK ((reset = ANY (ARRAY['NONE'::text, 'DAY'::text, 'WEEK'::text, 'MONTH'::text, 'SEASON'::text]))),
    CONSTRAINT boards_retain_periods_check CHECK ((retain_periods >= 0)),
    CONSTRAINT boards_sort_order_check CHECK ((sort_order = ANY (ARRAY['DESC'::text, 'ASC'::text]))),
    CONSTRAINT boards_tiebreak_check CHECK ((tiebreak = ANY (ARRAY['NONE'::text, 'SUBSCORE_DESC'::text, 'SUBSCORE_ASC'::text]))),
    CONSTRAINT boards_tiers_check CHECK ((jsonb_typeof(tiers) = 'array'::text))
);


--
-- Name: claims; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.claims (
    board_id text NOT NULL COLLATE pg_catalog."C",
    period_key text NOT NULL COLLATE pg_catalog."C",
    player_id text NOT NULL COLLATE pg_catalog."C",
    claim_id text NOT NULL,
    claimed_at timestamp with time zone NOT NULL,
    rank integer NOT NULL,
    score integer NOT NULL,
    subscore integer,
    tier text,
    participants integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    month date,
    period_id integer,
    CONSTRAINT claims_check CHECK (((board_id = 'main'::text) = (month IS NOT NULL))),
    CONSTRAINT claims_check1 CHECK (((month IS NULL) = (period_id IS NOT NULL))),
    CONSTRAINT claims_claim_id_check CHECK (((char_length(claim_id) >= 1) AND (char_length(claim_id) <= 128)))
);


--
-- Name: corrections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.corrections (
    id bigint NOT NULL,
    month date,
    player_id text COLLATE pg_catalog."C",
    score_before integer,
    score_after integer,
    reason text NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    board_id text COLLATE pg_catalog."C",
    period_id integer,
    CONSTRAINT corrections_month_or_period_check CHECK (((month IS NULL) = ((period_id IS NOT NULL) AND (board_id IS NOT NULL)))),
    CONSTRAINT corrections_player_check CHECK (((month IS NULL) OR (player_id IS NOT NULL))),
    CONSTRAINT corrections_reason_check CHECK (((char_length(reason) >= 1) AND (char_length(reason) <= 500))),
    CONSTRAINT corrections_score_after_check CHECK (((month IS NULL) OR ((score_after >= 0) AND (score_after <= 10000))))
);


--
-- Name: corrections_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.corrections_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: corrections_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.corrections_id_seq OWNED BY public.corrections.id;


--
-- Name: final_ranks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.final_ranks (
    month date NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL
)
PARTITION BY LIST (month);


--
-- Name: final_ranks_2026_08_v1; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.final_ranks_2026_08_v1 (
    month date NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    CONSTRAINT final_ranks_2026_08_v1_month_check CHECK ((month = '2026-08-01'::date))
);


--
-- Name: final_ranks_2026_09_v3; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.final_ranks_2026_09_v3 (
    month date NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    CONSTRAINT final_ranks_2026_09_v3_month_check CHECK ((month = '2026-09-01'::date))
);


--
-- Name: months; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.months (
    month date NOT NULL,
    status text DEFAULT 'OPEN'::text NOT NULL,
    opened_at timestamp with time zone DEFAULT now() NOT NULL,
    ends_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone,
    participants integer,
    digest text,
    ranks_version integer DEFAULT 0 NOT NULL,
    CONSTRAINT months_check CHECK (((status = 'CLOSED'::text) = ((closed_at IS NOT NULL) AND (participants IS NOT NULL)))),
    CONSTRAINT months_month_check CHECK ((EXTRACT(day FROM month) = (1)::numeric)),
    CONSTRAINT months_status_check CHECK ((status = ANY (ARRAY['OPEN'::text, 'CLOSING'::text, 'CLOSED'::text])))
);


--
-- Name: outbox; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.outbox (
    id text NOT NULL,
    type text NOT NULL,
    month date,
    body text NOT NULL,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    delivered_at timestamp with time zone,
    last_error text,
    board_id text COLLATE pg_catalog."C",
    period_id integer,
    CONSTRAINT outbox_month_or_period_check CHECK (((month IS NULL) = ((period_id IS NOT NULL) AND (board_id IS NOT NULL)))),
    CONSTRAINT outbox_type_check CHECK ((type = ANY (ARRAY['month.closed'::text, 'month.corrected'::text, 'period.closed'::text, 'period.corrected'::text])))
);


--
-- Name: periods; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.periods (
    board_id text NOT NULL COLLATE pg_catalog."C",
    key text NOT NULL COLLATE pg_catalog."C",
    id integer NOT NULL,
    status text DEFAULT 'OPEN'::text NOT NULL,
    starts_at timestamp with time zone NOT NULL,
    ends_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    closed_at timestamp with time zone,
    participants integer,
    digest text,
    ranks_version integer DEFAULT 0 NOT NULL,
    final_bucket date,
    CONSTRAINT periods_check CHECK ((ends_at > starts_at)),
    CONSTRAINT periods_check1 CHECK (((status = 'CLOSED'::text) = ((closed_at IS NOT NULL) AND (participants IS NOT NULL)))),
    CONSTRAINT periods_key_check CHECK ((key ~ '^[A-Za-z0-9_.-]{1,64}$'::text)),
    CONSTRAINT periods_status_check CHECK ((status = ANY (ARRAY['OPEN'::text, 'CLOSING'::text, 'CLOSED'::text])))
);


--
-- Name: periods_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.periods ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.periods_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.players (
    id text NOT NULL COLLATE pg_catalog."C",
    name text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT players_id_check CHECK (((char_length(id) >= 1) AND (char_length(id) <= 64))),
    CONSTRAINT players_name_check CHECK ((char_length(name) <= 64))
);


--
-- Name: removed_players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.removed_players (
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version bigint NOT NULL,
    dirty boolean NOT NULL
);


--
-- Name: score_block_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_block_counts (
    month date NOT NULL,
    block integer NOT NULL,
    players integer NOT NULL
)
WITH (fillfactor='50');


--
-- Name: score_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_counts (
    month date NOT NULL,
    score integer NOT NULL,
    players integer NOT NULL
)
WITH (fillfactor='50');


--
-- Name: score_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_events (
    event_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    mode text NOT NULL,
    value integer NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone NOT NULL,
    status text NOT NULL,
    old_score integer,
    new_score integer NOT NULL,
    CONSTRAINT score_events_mode_check1 CHECK ((mode = ANY (ARRAY['ADD'::text, 'SET'::text, 'BEST'::text]))),
    CONSTRAINT score_events_status_check1 CHECK ((status = ANY (ARRAY['APPLIED'::text, 'UNCHANGED'::text])))
)
PARTITION BY LIST (month);


--
-- Name: score_events_2026_08; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_events_2026_08 (
    event_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    mode text NOT NULL,
    value integer NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone NOT NULL,
    status text NOT NULL,
    old_score integer,
    new_score integer NOT NULL,
    CONSTRAINT score_events_mode_check1 CHECK ((mode = ANY (ARRAY['ADD'::text, 'SET'::text, 'BEST'::text]))),
    CONSTRAINT score_events_status_check1 CHECK ((status = ANY (ARRAY['APPLIED'::text, 'UNCHANGED'::text])))
);


--
-- Name: score_events_2026_09; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_events_2026_09 (
    event_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    mode text NOT NULL,
    value integer NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone NOT NULL,
    status text NOT NULL,
    old_score integer,
    new_score integer NOT NULL,
    CONSTRAINT score_events_mode_check1 CHECK ((mode = ANY (ARRAY['ADD'::text, 'SET'::text, 'BEST'::text]))),
    CONSTRAINT score_events_status_check1 CHECK ((status = ANY (ARRAY['APPLIED'::text, 'UNCHANGED'::text])))
);


--
-- Name: score_events_2026_10; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_events_2026_10 (
    event_id text NOT NULL COLLATE pg_catalog."C",
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    mode text NOT NULL,
    value integer NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone NOT NULL,
    status text NOT NULL,
    old_score integer,
    new_score integer NOT NULL,
    CONSTRAINT score_events_mode_check1 CHECK ((mode = ANY (ARRAY['ADD'::text, 'SET'::text, 'BEST'::text]))),
    CONSTRAINT score_events_status_check1 CHECK ((status = ANY (ARRAY['APPLIED'::text, 'UNCHANGED'::text])))
);


--
-- Name: score_hour_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_hour_counts (
    month date NOT NULL,
    score integer NOT NULL,
    hour integer NOT NULL,
    players integer NOT NULL
)
WITH (fillfactor='50');


--
-- Name: score_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.score_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: scores; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scores (
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT scores_score_check CHECK (((score >= 0) AND (score <= 10000)))
)
PARTITION BY LIST (month);


--
-- Name: scores_2026_08; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scores_2026_08 (
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT scores_score_check CHECK (((score >= 0) AND (score <= 10000)))
);


--
-- Name: scores_2026_09; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scores_2026_09 (
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT scores_score_check CHECK (((score >= 0) AND (score <= 10000)))
);


--
-- Name: scores_2026_10; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scores_2026_10 (
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT scores_score_check CHECK (((score >= 0) AND (score <= 10000)))
);


--
-- Name: board_final_ranks_2026_11; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_final_ranks ATTACH PARTITION public.board_final_ranks_2026_11 FOR VALUES IN ('2026-11-01');


--
-- Name: final_ranks_2026_08_v1; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks ATTACH PARTITION public.final_ranks_2026_08_v1 FOR VALUES IN ('2026-08-01');


--
-- Name: final_ranks_2026_09_v3; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks ATTACH PARTITION public.final_ranks_2026_09_v3 FOR VALUES IN ('2026-09-01');


--
-- Name: score_events_2026_08; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events ATTACH PARTITION public.score_events_2026_08 FOR VALUES IN ('2026-08-01');


--
-- Name: score_events_2026_09; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events ATTACH PARTITION public.score_events_2026_09 FOR VALUES IN ('2026-09-01');


--
-- Name: score_events_2026_10; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events ATTACH PARTITION public.score_events_2026_10 FOR VALUES IN ('2026-10-01');


--
-- Name: scores_2026_08; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ATTACH PARTITION public.scores_2026_08 FOR VALUES IN ('2026-08-01');


--
-- Name: scores_2026_09; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ATTACH PARTITION public.scores_2026_09 FOR VALUES IN ('2026-09-01');


--
-- Name: scores_2026_10; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ATTACH PARTITION public.scores_2026_10 FOR VALUES IN ('2026-10-01');


--
-- Name: corrections id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections ALTER COLUMN id SET DEFAULT nextval('public.corrections_id_seq'::regclass);


--
-- Data for Name: board_final_ranks_2026_11; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 1, 'player-00000012', 43, NULL, '2026-11-09 16:26:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 2, 'player-00000008', 49, NULL, '2026-11-14 17:20:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 3, 'player-00000002', 62, NULL, '2026-11-09 17:32:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 4, 'player-00000015', 86, NULL, '2026-11-12 08:56:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 5, 'player-00000010', 88, NULL, '2026-11-11 10:34:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 6, 'player-00000006', 100, NULL, '2026-11-23 20:30:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 7, 'player-00000004', 119, NULL, '2026-11-04 18:50:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 8, 'player-00000013', 122, NULL, '2026-11-26 14:54:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 9, 'player-00000011', 135, NULL, '2026-11-18 07:09:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 10, 'player-00000005', 169, NULL, '2026-11-08 07:05:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 11, 'player-00000014', 274, NULL, '2026-11-26 13:30:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 12, 'player-00000003', 278, NULL, '2026-11-01 10:16:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 13, 'player-00000009', 280, NULL, '2026-11-04 00:47:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 14, 'player-00000007', 334, NULL, '2026-11-09 10:25:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 5, 15, 'player-00000001', 504, NULL, '2026-11-10 01:08:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 1, 'y01', 0, 0, '2026-11-26 08:00:00+00', '{"car": "red", "lap": 0}');
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 2, 'player-00000002', 5, NULL, '2026-11-27 21:13:36.296877+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 3, 'player-00000020', 39, NULL, '2026-11-26 14:18:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 4, 'player-00000016', 86, NULL, '2026-11-26 13:48:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 5, 'player-00000006', 96, NULL, '2026-11-26 18:17:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 6, 'player-00000004', 100, NULL, '2026-11-26 13:55:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 7, 'player-00000018', 100, NULL, '2026-11-26 22:18:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 8, 'player-00000009', 121, NULL, '2026-11-26 15:43:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 9, 'player-00000015', 137, NULL, '2026-11-26 11:24:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 10, 'player-00000003', 172, NULL, '2026-11-26 10:12:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 11, 'player-00000010', 178, NULL, '2026-11-26 13:17:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 12, 'player-00000005', 331, NULL, '2026-11-26 12:37:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 13, 'player-00000008', 365, NULL, '2026-11-26 01:21:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 14, 'player-00000014', 365, NULL, '2026-11-26 18:02:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 15, 'player-00000013', 376, NULL, '2026-11-26 10:03:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 16, 'player-00000001', 399, NULL, '2026-11-26 03:46:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 17, 'player-00000019', 490, NULL, '2026-11-26 14:23:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 18, 'player-00000017', 518, NULL, '2026-11-26 02:41:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 19, 'player-00000007', 603, NULL, '2026-11-26 02:39:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 20, 'player-00000012', 815, NULL, '2026-11-26 22:11:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 21, 'player-00000011', 1413, NULL, '2026-11-26 19:19:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 22, 'y02', 60000, 1, '2026-11-26 08:01:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 23, 'y05', 61000, 3, '2026-11-26 08:00:04+00', '{"car": "blue", "lap": 4}');
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 24, 'y06', 61250, 0, '2026-11-26 08:00:05+00', '{"car": "green", "lap": 5}');
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 25, 'y07', 61500, 2, '2026-11-26 08:00:06+00', '{"car": "red", "lap": 6}');
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 26, 'y04', 61750, 1, '2026-11-26 08:00:03+00', '{"car": "red", "lap": 3}');
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 3, 27, 'y08', 100000, 4, '2026-11-26 08:00:07+00', '{"car": "blue", "lap": 7}');
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 1, 'player-00000005', 10000, NULL, '2026-11-27 21:13:36.553155+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 2, 'player-00000021', 1005, NULL, '2026-11-19 07:22:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 3, 'player-00000014', 634, NULL, '2026-11-20 12:32:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 4, 'player-00000017', 494, NULL, '2026-11-22 20:24:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 5, 'player-00000024', 469, NULL, '2026-11-22 22:43:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 6, 'player-00000011', 465, NULL, '2026-11-17 22:55:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 7, 'player-00000010', 435, NULL, '2026-11-21 11:34:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 8, 'player-00000012', 423, NULL, '2026-11-20 07:36:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 9, 'player-00000009', 397, NULL, '2026-11-18 12:28:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 10, 'player-00000007', 315, NULL, '2026-11-16 03:11:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 11, 'player-00000015', 315, NULL, '2026-11-19 20:50:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 12, 'player-00000004', 314, NULL, '2026-11-17 23:07:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 13, 'player-00000016', 311, NULL, '2026-11-17 18:57:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 14, 'player-00000013', 302, NULL, '2026-11-20 15:40:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 15, 'player-00000025', 237, NULL, '2026-11-19 14:53:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 16, 'player-00000023', 200, NULL, '2026-11-20 19:55:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 17, 'player-00000003', 179, NULL, '2026-11-21 12:06:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 18, 'player-00000001', 149, NULL, '2026-11-21 03:37:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 19, 'player-00000008', 142, NULL, '2026-11-22 00:49:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 20, 'player-00000022', 139, NULL, '2026-11-16 17:24:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 21, 'player-00000006', 136, NULL, '2026-11-21 07:16:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 22, 'player-00000002', 92, NULL, '2026-11-18 08:08:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 23, 'player-00000019', 89, NULL, '2026-11-20 17:06:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 24, 'player-00000020', 66, NULL, '2026-11-18 12:06:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 4, 25, 'player-00000018', 30, NULL, '2026-11-20 02:31:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 1, 'player-00000014', 101, NULL, '2026-11-17 03:13:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 2, 'player-00000016', 103, NULL, '2026-11-14 20:32:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 3, 'player-00000001', 117, NULL, '2026-11-20 12:41:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 4, 'player-00000005', 144, NULL, '2026-11-18 13:53:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 5, 'player-00000008', 160, NULL, '2026-11-10 10:53:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 6, 'player-00000013', 168, NULL, '2026-11-08 20:37:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 7, 'player-00000011', 169, NULL, '2026-11-20 21:23:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 8, 'player-00000015', 214, NULL, '2026-11-11 20:18:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 9, 'player-00000009', 267, NULL, '2026-11-22 06:52:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 10, 'player-00000018', 275, NULL, '2026-11-21 20:05:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 11, 'player-00000006', 364, NULL, '2026-11-12 10:27:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 12, 'player-00000003', 368, NULL, '2026-11-14 17:35:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 13, 'player-00000007', 432, NULL, '2026-11-15 19:26:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 14, 'player-00000017', 439, NULL, '2026-11-09 23:13:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 15, 'player-00000012', 553, NULL, '2026-11-08 02:09:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 16, 'player-00000002', 700, NULL, '2026-11-07 16:53:00+00', NULL);
INSERT INTO public.board_final_ranks_2026_11 VALUES ('2026-11-01', 1, 17, 'player-00000010', 1167, NULL, '2026-11-08 02:28:00+00', NULL);


--
-- Data for Name: board_removed_players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.board_removed_players VALUES (3, 'y03');
INSERT INTO public.board_removed_players VALUES (1, 'player-00000004');


--
-- Data for Name: board_score_events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y01-1', 3, 'y01', 'BEST', 0, 0, '2026-11-26 08:00:00+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y02-1', 3, 'y02', 'BEST', 61250, 2, '2026-11-26 08:00:01+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y03-1', 3, 'y03', 'BEST', 61500, 4, '2026-11-26 08:00:02+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y04-1', 3, 'y04', 'BEST', 61750, 1, '2026-11-26 08:00:03+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 61750);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y05-1', 3, 'y05', 'BEST', 61000, 3, '2026-11-26 08:00:04+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 61000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y06-1', 3, 'y06', 'BEST', 61250, 0, '2026-11-26 08:00:05+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y07-1', 3, 'y07', 'BEST', 61500, 2, '2026-11-26 08:00:06+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y08-1', 3, 'y08', 'BEST', 100000, 4, '2026-11-26 08:00:07+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', NULL, 100000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y02-2', 3, 'y02', 'BEST', 60000, 1, '2026-11-26 08:01:00+00', '2026-11-27 21:13:31.128966+00', 'APPLIED', 61250, 60000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/y03-2', 3, 'y03', 'BEST', 99999, NULL, '2026-11-26 08:01:01+00', '2026-11-27 21:13:31.128966+00', 'UNCHANGED', 61500, 61500);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t01-1', 6, 't01', 'BEST', 0, 0, '2026-11-27 00:00:00+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t02-1', 6, 't02', 'BEST', 61250, 2, '2026-11-27 00:00:01+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t03-1', 6, 't03', 'BEST', 61500, 4, '2026-11-27 00:00:02+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t04-1', 6, 't04', 'BEST', 61750, 1, '2026-11-27 00:00:03+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61750);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t05-1', 6, 't05', 'BEST', 61000, 3, '2026-11-27 00:00:04+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t06-1', 6, 't06', 'BEST', 61250, 0, '2026-11-27 00:00:05+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t07-1', 6, 't07', 'BEST', 61500, 2, '2026-11-27 00:00:06+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t08-1', 6, 't08', 'BEST', 61750, 4, '2026-11-27 00:00:07+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61750);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t09-1', 6, 't09', 'BEST', 61000, 1, '2026-11-27 00:00:08+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t10-1', 6, 't10', 'BEST', 61250, 3, '2026-11-27 00:00:09+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t11-1', 6, 't11', 'BEST', 61500, 0, '2026-11-27 00:00:10+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t12-1', 6, 't12', 'BEST', 61750, 2, '2026-11-27 00:00:11+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61750);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t13-1', 6, 't13', 'BEST', 61000, 4, '2026-11-27 00:00:12+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 61000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t14-1', 6, 't14', 'BEST', 100000, 1, '2026-11-27 00:00:13+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', NULL, 100000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t02-2', 6, 't02', 'BEST', 60000, 1, '2026-11-27 00:01:00+00', '2026-11-27 21:13:31.247981+00', 'APPLIED', 61250, 60000);
INSERT INTO public.board_score_events VALUES ('daily.laps', 'daily.laps/t03-2', 6, 't03', 'BEST', 99999, NULL, '2026-11-27 00:01:01+00', '2026-11-27 21:13:31.247981+00', 'UNCHANGED', 61500, 61500);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a01-1', 7, 'a01', 'ADD', 0, 10, '2026-11-23 01:00:00+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a02-1', 7, 'a02', 'ADD', 100, 9, '2026-11-23 01:00:01+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a03-1', 7, 'a03', 'ADD', 200, 8, '2026-11-23 01:00:02+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', NULL, 200);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a04-1', 7, 'a04', 'ADD', 300, 10, '2026-11-23 01:00:03+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', NULL, 300);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a05-1', 7, 'a05', 'ADD', 400, 9, '2026-11-23 01:00:04+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', NULL, 400);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a06-1', 7, 'a06', 'ADD', 0, 8, '2026-11-23 01:00:05+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a01-2', 7, 'a01', 'ADD', 250, NULL, '2026-11-23 01:00:30+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', 0, 250);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/a04-2', 7, 'a04', 'SET', 10000, NULL, '2026-11-23 01:00:31+00', '2026-11-27 21:13:31.270153+00', 'APPLIED', 300, 10000);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b01-1', 7, 'b01', 'ADD', 0, 10, '2026-11-23 02:00:00+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b02-1', 7, 'b02', 'ADD', 100, 9, '2026-11-23 02:00:01+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b03-1', 7, 'b03', 'ADD', 200, 8, '2026-11-23 02:00:02+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 200);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b04-1', 7, 'b04', 'ADD', 300, 10, '2026-11-23 02:00:03+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 300);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b05-1', 7, 'b05', 'ADD', 400, 9, '2026-11-23 02:00:04+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 400);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b06-1', 7, 'b06', 'ADD', 0, 8, '2026-11-23 02:00:05+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b07-1', 7, 'b07', 'ADD', 100, 10, '2026-11-23 02:00:06+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b08-1', 7, 'b08', 'ADD', 200, 9, '2026-11-23 02:00:07+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 200);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b09-1', 7, 'b09', 'ADD', 300, 8, '2026-11-23 02:00:08+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 300);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b10-1', 7, 'b10', 'ADD', 400, 10, '2026-11-23 02:00:09+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 400);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b11-1', 7, 'b11', 'ADD', 0, 9, '2026-11-23 02:00:10+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b12-1', 7, 'b12', 'ADD', 100, 8, '2026-11-23 02:00:11+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b13-1', 7, 'b13', 'ADD', 200, 10, '2026-11-23 02:00:12+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 200);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b14-1', 7, 'b14', 'ADD', 300, 9, '2026-11-23 02:00:13+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 300);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b15-1', 7, 'b15', 'ADD', 400, 8, '2026-11-23 02:00:14+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 400);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b16-1', 7, 'b16', 'ADD', 0, 10, '2026-11-23 02:00:15+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b01-2', 7, 'b01', 'ADD', 250, NULL, '2026-11-23 02:00:30+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', 0, 250);
INSERT INTO public.board_score_events VALUES ('weekly.pvp', 'weekly.pvp/b04-2', 7, 'b04', 'SET', 10000, NULL, '2026-11-23 02:00:31+00', '2026-11-27 21:13:31.297719+00', 'APPLIED', 300, 10000);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c01-1', 8, 'c01', 'ADD', 0, 10, '2026-11-01 02:00:00+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c02-1', 8, 'c02', 'ADD', 100, 9, '2026-11-01 02:00:01+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c03-1', 8, 'c03', 'ADD', 200, 8, '2026-11-01 02:00:02+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 200);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c04-1', 8, 'c04', 'ADD', 300, 10, '2026-11-01 02:00:03+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 300);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c05-1', 8, 'c05', 'ADD', 400, 9, '2026-11-01 02:00:04+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 400);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c06-1', 8, 'c06', 'ADD', 0, 8, '2026-11-01 02:00:05+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c07-1', 8, 'c07', 'ADD', 100, 10, '2026-11-01 02:00:06+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c08-1', 8, 'c08', 'ADD', 200, 9, '2026-11-01 02:00:07+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 200);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c09-1', 8, 'c09', 'ADD', 300, 8, '2026-11-01 02:00:08+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 300);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c10-1', 8, 'c10', 'ADD', 400, 10, '2026-11-01 02:00:09+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 400);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c11-1', 8, 'c11', 'ADD', 0, 9, '2026-11-01 02:00:10+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c12-1', 8, 'c12', 'ADD', 100, 8, '2026-11-01 02:00:11+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', NULL, 100);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c01-2', 8, 'c01', 'ADD', 250, NULL, '2026-11-01 02:00:30+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', 0, 250);
INSERT INTO public.board_score_events VALUES ('monthly.clan', 'monthly.clan/c04-2', 8, 'c04', 'SET', 10000, NULL, '2026-11-01 02:00:31+00', '2026-11-27 21:13:31.308402+00', 'APPLIED', 300, 10000);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w01-1', 9, 'w01', 'BEST', 2000000000, NULL, '2026-11-07 01:00:00+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 2000000000);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w02-1', 9, 'w02', 'BEST', 0, NULL, '2026-11-07 01:00:01+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w03-1', 9, 'w03', 'BEST', 1999999999, NULL, '2026-11-07 01:00:02+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 1999999999);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w04-1', 9, 'w04', 'BEST', 1, NULL, '2026-11-07 01:00:03+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 1);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w05-1', 9, 'w05', 'BEST', 1000000000, NULL, '2026-11-07 01:00:04+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 1000000000);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w06-1', 9, 'w06', 'BEST', 2000000000, NULL, '2026-11-07 01:00:05+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 2000000000);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w07-1', 9, 'w07', 'BEST', 123456789, NULL, '2026-11-07 01:00:00+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 123456789);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w08-1', 9, 'w08', 'BEST', 0, NULL, '2026-11-07 01:00:01+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w09-1', 9, 'w09', 'BEST', 1000000000, NULL, '2026-11-07 01:00:02+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 1000000000);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w10-1', 9, 'w10', 'BEST', 987654321, NULL, '2026-11-07 01:00:03+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 987654321);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w11-1', 9, 'w11', 'BEST', 42, NULL, '2026-11-07 01:00:04+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 42);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w12-1', 9, 'w12', 'BEST', 1500000000, NULL, '2026-11-07 01:00:05+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', NULL, 1500000000);
INSERT INTO public.board_score_events VALUES ('forever', 'forever/w02-2', 9, 'w02', 'ADD', 2000000000, NULL, '2026-11-07 01:00:40+00', '2026-11-27 21:13:31.354556+00', 'APPLIED', 0, 2000000000);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s01-1', 2, 's01', 'BEST', 0, 0, '2026-11-25 01:00:00+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 0);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s02-1', 2, 's02', 'BEST', 61250, 2, '2026-11-25 01:00:01+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s03-1', 2, 's03', 'BEST', 61500, 4, '2026-11-25 01:00:02+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s04-1', 2, 's04', 'BEST', 61750, 1, '2026-11-25 01:00:03+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61750);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s05-1', 2, 's05', 'BEST', 61000, 3, '2026-11-25 01:00:04+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61000);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s06-1', 2, 's06', 'BEST', 61250, 0, '2026-11-25 01:00:05+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s07-1', 2, 's07', 'BEST', 61500, 2, '2026-11-25 01:00:06+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s08-1', 2, 's08', 'BEST', 61750, 4, '2026-11-25 01:00:07+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61750);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s09-1', 2, 's09', 'BEST', 61000, 1, '2026-11-25 01:00:08+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61000);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s10-1', 2, 's10', 'BEST', 61250, 3, '2026-11-25 01:00:09+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61250);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s11-1', 2, 's11', 'BEST', 61500, 0, '2026-11-25 01:00:10+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 61500);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s12-1', 2, 's12', 'BEST', 100000, 2, '2026-11-25 01:00:11+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', NULL, 100000);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s02-2', 2, 's02', 'BEST', 60000, 1, '2026-11-25 01:01:00+00', '2026-11-27 21:13:31.37577+00', 'APPLIED', 61250, 60000);
INSERT INTO public.board_score_events VALUES ('season.cup', 'season.cup/s03-2', 2, 's03', 'BEST', 99999, NULL, '2026-11-25 01:01:01+00', '2026-11-27 21:13:31.37577+00', 'UNCHANGED', 61500, 61500);


--
-- Data for Name: board_scores; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.board_scores VALUES (3, 'player-00000001', 399, NULL, 399, 9223372036854775807, '2026-11-26 03:46:00+00', 55, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000003', 172, NULL, 172, 9223372036854775807, '2026-11-26 10:12:00+00', 57, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000004', 100, NULL, 100, 9223372036854775807, '2026-11-26 13:55:00+00', 58, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000005', 331, NULL, 331, 9223372036854775807, '2026-11-26 12:37:00+00', 59, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000006', 96, NULL, 96, 9223372036854775807, '2026-11-26 18:17:00+00', 60, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000007', 603, NULL, 603, 9223372036854775807, '2026-11-26 02:39:00+00', 61, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000008', 365, NULL, 365, 9223372036854775807, '2026-11-26 01:21:00+00', 62, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000009', 121, NULL, 121, 9223372036854775807, '2026-11-26 15:43:00+00', 63, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000010', 178, NULL, 178, 9223372036854775807, '2026-11-26 13:17:00+00', 64, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000011', 1413, NULL, 1413, 9223372036854775807, '2026-11-26 19:19:00+00', 65, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000012', 815, NULL, 815, 9223372036854775807, '2026-11-26 22:11:00+00', 66, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000013', 376, NULL, 376, 9223372036854775807, '2026-11-26 10:03:00+00', 67, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000014', 365, NULL, 365, 9223372036854775807, '2026-11-26 18:02:00+00', 68, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000015', 137, NULL, 137, 9223372036854775807, '2026-11-26 11:24:00+00', 69, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000016', 86, NULL, 86, 9223372036854775807, '2026-11-26 13:48:00+00', 70, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000017', 518, NULL, 518, 9223372036854775807, '2026-11-26 02:41:00+00', 71, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000018', 100, NULL, 100, 9223372036854775807, '2026-11-26 22:18:00+00', 72, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000019', 490, NULL, 490, 9223372036854775807, '2026-11-26 14:23:00+00', 73, NULL);
INSERT INTO public.board_scores VALUES (3, 'player-00000020', 39, NULL, 39, 9223372036854775807, '2026-11-26 14:18:00+00', 74, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000001', 149, NULL, -149, 9223372036854775807, '2026-11-21 03:37:00+00', 75, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000002', 92, NULL, -92, 9223372036854775807, '2026-11-18 08:08:00+00', 76, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000003', 179, NULL, -179, 9223372036854775807, '2026-11-21 12:06:00+00', 77, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000004', 314, NULL, -314, 9223372036854775807, '2026-11-17 23:07:00+00', 78, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000006', 136, NULL, -136, 9223372036854775807, '2026-11-21 07:16:00+00', 80, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000007', 315, NULL, -315, 9223372036854775807, '2026-11-16 03:11:00+00', 81, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000008', 142, NULL, -142, 9223372036854775807, '2026-11-22 00:49:00+00', 82, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000009', 397, NULL, -397, 9223372036854775807, '2026-11-18 12:28:00+00', 83, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000010', 435, NULL, -435, 9223372036854775807, '2026-11-21 11:34:00+00', 84, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000011', 465, NULL, -465, 9223372036854775807, '2026-11-17 22:55:00+00', 85, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000012', 423, NULL, -423, 9223372036854775807, '2026-11-20 07:36:00+00', 86, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000013', 302, NULL, -302, 9223372036854775807, '2026-11-20 15:40:00+00', 87, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000014', 634, NULL, -634, 9223372036854775807, '2026-11-20 12:32:00+00', 88, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000015', 315, NULL, -315, 9223372036854775807, '2026-11-19 20:50:00+00', 89, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000016', 311, NULL, -311, 9223372036854775807, '2026-11-17 18:57:00+00', 90, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000017', 494, NULL, -494, 9223372036854775807, '2026-11-22 20:24:00+00', 91, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000018', 30, NULL, -30, 9223372036854775807, '2026-11-20 02:31:00+00', 92, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000019', 89, NULL, -89, 9223372036854775807, '2026-11-20 17:06:00+00', 93, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000020', 66, NULL, -66, 9223372036854775807, '2026-11-18 12:06:00+00', 94, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000021', 1005, NULL, -1005, 9223372036854775807, '2026-11-19 07:22:00+00', 95, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000022', 139, NULL, -139, 9223372036854775807, '2026-11-16 17:24:00+00', 96, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000023', 200, NULL, -200, 9223372036854775807, '2026-11-20 19:55:00+00', 97, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000024', 469, NULL, -469, 9223372036854775807, '2026-11-22 22:43:00+00', 98, NULL);
INSERT INTO public.board_scores VALUES (4, 'player-00000025', 237, NULL, -237, 9223372036854775807, '2026-11-19 14:53:00+00', 99, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000001', 504, NULL, 504, 0, '2026-11-10 01:08:00+00', 100, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000002', 62, NULL, 62, 0, '2026-11-09 17:32:00+00', 101, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000003', 278, NULL, 278, 0, '2026-11-01 10:16:00+00', 102, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000004', 119, NULL, 119, 0, '2026-11-04 18:50:00+00', 103, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000005', 169, NULL, 169, 0, '2026-11-08 07:05:00+00', 104, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000006', 100, NULL, 100, 0, '2026-11-23 20:30:00+00', 105, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000007', 334, NULL, 334, 0, '2026-11-09 10:25:00+00', 106, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000008', 49, NULL, 49, 0, '2026-11-14 17:20:00+00', 107, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000009', 280, NULL, 280, 0, '2026-11-04 00:47:00+00', 108, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000010', 88, NULL, 88, 0, '2026-11-11 10:34:00+00', 109, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000011', 135, NULL, 135, 0, '2026-11-18 07:09:00+00', 110, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000012', 43, NULL, 43, 0, '2026-11-09 16:26:00+00', 111, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000013', 122, NULL, 122, 0, '2026-11-26 14:54:00+00', 112, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000014', 274, NULL, 274, 0, '2026-11-26 13:30:00+00', 113, NULL);
INSERT INTO public.board_scores VALUES (5, 'player-00000015', 86, NULL, 86, 0, '2026-11-12 08:56:00+00', 114, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000001', 117, NULL, 117, 9223372036854775807, '2026-11-20 12:41:00+00', 115, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000002', 700, NULL, 700, 9223372036854775807, '2026-11-07 16:53:00+00', 116, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000003', 368, NULL, 368, 9223372036854775807, '2026-11-14 17:35:00+00', 117, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000005', 144, NULL, 144, 9223372036854775807, '2026-11-18 13:53:00+00', 119, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000006', 364, NULL, 364, 9223372036854775807, '2026-11-12 10:27:00+00', 120, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000007', 432, NULL, 432, 9223372036854775807, '2026-11-15 19:26:00+00', 121, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000008', 160, NULL, 160, 9223372036854775807, '2026-11-10 10:53:00+00', 122, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000009', 267, NULL, 267, 9223372036854775807, '2026-11-22 06:52:00+00', 123, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000010', 1167, NULL, 1167, 9223372036854775807, '2026-11-08 02:28:00+00', 124, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000011', 169, NULL, 169, 9223372036854775807, '2026-11-20 21:23:00+00', 125, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000012', 553, NULL, 553, 9223372036854775807, '2026-11-08 02:09:00+00', 126, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000013', 168, NULL, 168, 9223372036854775807, '2026-11-08 20:37:00+00', 127, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000014', 101, NULL, 101, 9223372036854775807, '2026-11-17 03:13:00+00', 128, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000015', 214, NULL, 214, 9223372036854775807, '2026-11-11 20:18:00+00', 129, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000016', 103, NULL, 103, 9223372036854775807, '2026-11-14 20:32:00+00', 130, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000017', 439, NULL, 439, 9223372036854775807, '2026-11-09 23:13:00+00', 131, NULL);
INSERT INTO public.board_scores VALUES (1, 'player-00000018', 275, NULL, 275, 9223372036854775807, '2026-11-21 20:05:00+00', 132, NULL);
INSERT INTO public.board_scores VALUES (3, 'y01', 0, 0, 0, 0, '2026-11-26 08:00:00+00', 133, '{"car": "red", "lap": 0}');
INSERT INTO public.board_scores VALUES (3, 'y02', 60000, 1, 60000, 1, '2026-11-26 08:01:00+00', 140, NULL);
INSERT INTO public.board_scores VALUES (3, 'y04', 61750, 1, 61750, 1, '2026-11-26 08:00:03+00', 135, '{"car": "red", "lap": 3}');
INSERT INTO public.board_scores VALUES (3, 'y05', 61000, 3, 61000, 3, '2026-11-26 08:00:04+00', 136, '{"car": "blue", "lap": 4}');
INSERT INTO public.board_scores VALUES (3, 'y06', 61250, 0, 61250, 0, '2026-11-26 08:00:05+00', 137, '{"car": "green", "lap": 5}');
INSERT INTO public.board_scores VALUES (3, 'y07', 61500, 2, 61500, 2, '2026-11-26 08:00:06+00', 138, '{"car": "red", "lap": 6}');
INSERT INTO public.board_scores VALUES (3, 'y08', 100000, 4, 100000, 4, '2026-11-26 08:00:07+00', 139, '{"car": "blue", "lap": 7}');
INSERT INTO public.board_scores VALUES (4, 'player-00000005', 10000, NULL, -10000, 9223372036854775807, '2026-11-27 21:13:36.553155+00', 314, NULL);
INSERT INTO public.board_scores VALUES (6, 't01', 0, 0, 0, 0, '2026-11-27 00:00:00+00', 193, '{"car": "red", "lap": 0}');
INSERT INTO public.board_scores VALUES (6, 't02', 60000, 1, 60000, 1, '2026-11-27 00:01:00+00', 206, NULL);
INSERT INTO public.board_scores VALUES (6, 't03', 61500, 4, 61500, 4, '2026-11-27 00:00:02+00', 194, '{"car": "green", "lap": 2}');
INSERT INTO public.board_scores VALUES (6, 't04', 61750, 1, 61750, 1, '2026-11-27 00:00:03+00', 195, '{"car": "red", "lap": 3}');
INSERT INTO public.board_scores VALUES (6, 't05', 61000, 3, 61000, 3, '2026-11-27 00:00:04+00', 196, '{"car": "blue", "lap": 4}');
INSERT INTO public.board_scores VALUES (6, 't06', 61250, 0, 61250, 0, '2026-11-27 00:00:05+00', 197, '{"car": "green", "lap": 5}');
INSERT INTO public.board_scores VALUES (6, 't07', 61500, 2, 61500, 2, '2026-11-27 00:00:06+00', 198, '{"car": "red", "lap": 6}');
INSERT INTO public.board_scores VALUES (6, 't08', 61750, 4, 61750, 4, '2026-11-27 00:00:07+00', 199, '{"car": "blue", "lap": 7}');
INSERT INTO public.board_scores VALUES (6, 't09', 61000, 1, 61000, 1, '2026-11-27 00:00:08+00', 200, '{"car": "green", "lap": 8}');
INSERT INTO public.board_scores VALUES (6, 't10', 61250, 3, 61250, 3, '2026-11-27 00:00:09+00', 201, '{"car": "red", "lap": 9}');
INSERT INTO public.board_scores VALUES (6, 't11', 61500, 0, 61500, 0, '2026-11-27 00:00:10+00', 202, '{"car": "blue", "lap": 10}');
INSERT INTO public.board_scores VALUES (6, 't12', 61750, 2, 61750, 2, '2026-11-27 00:00:11+00', 203, '{"car": "green", "lap": 11}');
INSERT INTO public.board_scores VALUES (6, 't13', 61000, 4, 61000, 4, '2026-11-27 00:00:12+00', 204, '{"car": "red", "lap": 12}');
INSERT INTO public.board_scores VALUES (6, 't14', 100000, 1, 100000, 1, '2026-11-27 00:00:13+00', 205, '{"car": "blue", "lap": 13}');
INSERT INTO public.board_scores VALUES (7, 'b01', 250, NULL, -250, 9223372036854775807, '2026-11-23 02:00:30+00', 239, NULL);
INSERT INTO public.board_scores VALUES (7, 'b02', 100, 9, -100, -9, '2026-11-23 02:00:01+00', 225, NULL);
INSERT INTO public.board_scores VALUES (7, 'b03', 200, 8, -200, -8, '2026-11-23 02:00:02+00', 226, NULL);
INSERT INTO public.board_scores VALUES (7, 'b04', 10000, NULL, -10000, 9223372036854775807, '2026-11-23 02:00:31+00', 240, NULL);
INSERT INTO public.board_scores VALUES (7, 'b05', 400, 9, -400, -9, '2026-11-23 02:00:04+00', 227, NULL);
INSERT INTO public.board_scores VALUES (7, 'b06', 0, 8, 0, -8, '2026-11-23 02:00:05+00', 228, NULL);
INSERT INTO public.board_scores VALUES (7, 'b07', 100, 10, -100, -10, '2026-11-23 02:00:06+00', 229, NULL);
INSERT INTO public.board_scores VALUES (7, 'b08', 200, 9, -200, -9, '2026-11-23 02:00:07+00', 230, NULL);
INSERT INTO public.board_scores VALUES (7, 'b09', 300, 8, -300, -8, '2026-11-23 02:00:08+00', 231, NULL);
INSERT INTO public.board_scores VALUES (7, 'b10', 400, 10, -400, -10, '2026-11-23 02:00:09+00', 232, NULL);
INSERT INTO public.board_scores VALUES (7, 'b11', 0, 9, 0, -9, '2026-11-23 02:00:10+00', 233, NULL);
INSERT INTO public.board_scores VALUES (7, 'b12', 100, 8, -100, -8, '2026-11-23 02:00:11+00', 234, NULL);
INSERT INTO public.board_scores VALUES (7, 'b13', 200, 10, -200, -10, '2026-11-23 02:00:12+00', 235, NULL);
INSERT INTO public.board_scores VALUES (7, 'b14', 300, 9, -300, -9, '2026-11-23 02:00:13+00', 236, NULL);
INSERT INTO public.board_scores VALUES (7, 'b15', 400, 8, -400, -8, '2026-11-23 02:00:14+00', 237, NULL);
INSERT INTO public.board_scores VALUES (7, 'b16', 0, 10, 0, -10, '2026-11-23 02:00:15+00', 238, NULL);
INSERT INTO public.board_scores VALUES (8, 'c01', 250, NULL, -250, 0, '2026-11-01 02:00:30+00', 267, NULL);
INSERT INTO public.board_scores VALUES (8, 'c02', 100, 9, -100, 0, '2026-11-01 02:00:01+00', 257, NULL);
INSERT INTO public.board_scores VALUES (8, 'c03', 200, 8, -200, 0, '2026-11-01 02:00:02+00', 258, NULL);
INSERT INTO public.board_scores VALUES (8, 'c04', 10000, NULL, -10000, 0, '2026-11-01 02:00:31+00', 268, NULL);
INSERT INTO public.board_scores VALUES (8, 'c05', 400, 9, -400, 0, '2026-11-01 02:00:04+00', 259, NULL);
INSERT INTO public.board_scores VALUES (8, 'c06', 0, 8, 0, 0, '2026-11-01 02:00:05+00', 260, NULL);
INSERT INTO public.board_scores VALUES (8, 'c07', 100, 10, -100, 0, '2026-11-01 02:00:06+00', 261, NULL);
INSERT INTO public.board_scores VALUES (8, 'c08', 200, 9, -200, 0, '2026-11-01 02:00:07+00', 262, NULL);
INSERT INTO public.board_scores VALUES (8, 'c09', 300, 8, -300, 0, '2026-11-01 02:00:08+00', 263, NULL);
INSERT INTO public.board_scores VALUES (8, 'c10', 400, 10, -400, 0, '2026-11-01 02:00:09+00', 264, NULL);
INSERT INTO public.board_scores VALUES (8, 'c11', 0, 9, 0, 0, '2026-11-01 02:00:10+00', 265, NULL);
INSERT INTO public.board_scores VALUES (8, 'c12', 100, 8, -100, 0, '2026-11-01 02:00:11+00', 266, NULL);
INSERT INTO public.board_scores VALUES (9, 'w01', 2000000000, NULL, -2000000000, 0, '2026-11-07 01:00:00+00', 284, NULL);
INSERT INTO public.board_scores VALUES (9, 'w02', 2000000000, NULL, -2000000000, 0, '2026-11-07 01:00:40+00', 295, NULL);
INSERT INTO public.board_scores VALUES (9, 'w03', 1999999999, NULL, -1999999999, 0, '2026-11-07 01:00:02+00', 285, NULL);
INSERT INTO public.board_scores VALUES (9, 'w04', 1, NULL, -1, 0, '2026-11-07 01:00:03+00', 286, NULL);
INSERT INTO public.board_scores VALUES (9, 'w05', 1000000000, NULL, -1000000000, 0, '2026-11-07 01:00:04+00', 287, NULL);
INSERT INTO public.board_scores VALUES (9, 'w06', 2000000000, NULL, -2000000000, 0, '2026-11-07 01:00:05+00', 288, NULL);
INSERT INTO public.board_scores VALUES (9, 'w07', 123456789, NULL, -123456789, 0, '2026-11-07 01:00:00+00', 289, NULL);
INSERT INTO public.board_scores VALUES (9, 'w08', 0, NULL, 0, 0, '2026-11-07 01:00:01+00', 290, NULL);
INSERT INTO public.board_scores VALUES (9, 'w09', 1000000000, NULL, -1000000000, 0, '2026-11-07 01:00:02+00', 291, NULL);
INSERT INTO public.board_scores VALUES (9, 'w10', 987654321, NULL, -987654321, 0, '2026-11-07 01:00:03+00', 292, NULL);
INSERT INTO public.board_scores VALUES (9, 'w11', 42, NULL, -42, 0, '2026-11-07 01:00:04+00', 293, NULL);
INSERT INTO public.board_scores VALUES (9, 'w12', 1500000000, NULL, -1500000000, 0, '2026-11-07 01:00:05+00', 294, NULL);
INSERT INTO public.board_scores VALUES (2, 's01', 0, 0, 0, 0, '2026-11-25 01:00:00+00', 297, '{"car": "red", "lap": 0}');
INSERT INTO public.board_scores VALUES (2, 's02', 60000, 1, 60000, -1, '2026-11-25 01:01:00+00', 308, NULL);
INSERT INTO public.board_scores VALUES (2, 's03', 61500, 4, 61500, -4, '2026-11-25 01:00:02+00', 298, '{"car": "green", "lap": 2}');
INSERT INTO public.board_scores VALUES (2, 's04', 61750, 1, 61750, -1, '2026-11-25 01:00:03+00', 299, '{"car": "red", "lap": 3}');
INSERT INTO public.board_scores VALUES (2, 's05', 61000, 3, 61000, -3, '2026-11-25 01:00:04+00', 300, '{"car": "blue", "lap": 4}');
INSERT INTO public.board_scores VALUES (2, 's06', 61250, 0, 61250, 0, '2026-11-25 01:00:05+00', 301, '{"car": "green", "lap": 5}');
INSERT INTO public.board_scores VALUES (2, 's07', 61500, 2, 61500, -2, '2026-11-25 01:00:06+00', 302, '{"car": "red", "lap": 6}');
INSERT INTO public.board_scores VALUES (2, 's08', 61750, 4, 61750, -4, '2026-11-25 01:00:07+00', 303, '{"car": "blue", "lap": 7}');
INSERT INTO public.board_scores VALUES (2, 's09', 61000, 1, 61000, -1, '2026-11-25 01:00:08+00', 304, '{"car": "green", "lap": 8}');
INSERT INTO public.board_scores VALUES (2, 's10', 61250, 3, 61250, -3, '2026-11-25 01:00:09+00', 305, '{"car": "red", "lap": 9}');
INSERT INTO public.board_scores VALUES (2, 's11', 61500, 0, 61500, 0, '2026-11-25 01:00:10+00', 306, '{"car": "blue", "lap": 10}');
INSERT INTO public.board_scores VALUES (2, 's12', 100000, 2, 100000, -2, '2026-11-25 01:00:11+00', 307, '{"car": "green", "lap": 11}');
INSERT INTO public.board_scores VALUES (3, 'player-00000002', 5, NULL, 5, 9223372036854775807, '2026-11-27 21:13:36.296877+00', 313, NULL);


--
-- Data for Name: boards; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.boards VALUES ('main', 'Monthly event', 'MONTH', 'DESC', 0, 10000, 'NONE', 'UTC', 900, '0001-01-01 00:00:00+00', NULL, NULL, '[]', '2026-11-27 21:13:18.757923+00');
INSERT INTO public.boards VALUES ('daily.laps', 'Daily lap times', 'DAY', 'ASC', 0, 2000000000, 'SUBSCORE_ASC', 'Europe/Berlin', 172800, '2026-09-27 21:13:21+00', NULL, NULL, '[{"name": "podium", "topPercent": 5}, {"name": "top", "topPercent": 25}]', '2026-11-27 21:13:26.066845+00');
INSERT INTO public.boards VALUES ('weekly.pvp', 'Weekly PvP ladder', 'WEEK', 'DESC', 0, 10000, 'SUBSCORE_DESC', 'UTC', 604800, '2026-09-27 21:13:21+00', NULL, NULL, '[{"name": "gold", "topPercent": 1}, {"name": "silver", "topPercent": 10}, {"name": "bronze", "topPercent": 50}]', '2026-11-27 21:13:26.554616+00');
INSERT INTO public.boards VALUES ('monthly.clan', 'Clan month', 'MONTH', 'DESC', 0, 10000, 'NONE', 'UTC', 3600, '2026-05-27 21:13:21+00', NULL, NULL, '[{"name": "champion", "topPercent": 10}]', '2026-11-27 21:13:27.343222+00');
INSERT INTO public.boards VALUES ('monthly.sprint', 'Sprint month', 'MONTH', 'ASC', 0, 10000, 'NONE', 'UTC', 0, '2026-05-27 21:13:21+00', NULL, NULL, '[]', '2026-11-27 21:13:27.641657+00');
INSERT INTO public.boards VALUES ('forever', 'All-time power', 'NONE', 'DESC', 0, 2000000000, 'NONE', 'UTC', 604800, '2026-05-27 21:13:21+00', NULL, NULL, '[]', '2026-11-27 21:13:27.656674+00');
INSERT INTO public.boards VALUES ('season.cup', 'Season cup', 'SEASON', 'ASC', 0, 100000, 'SUBSCORE_DESC', 'UTC', 604800, '2026-05-27 21:13:21+00', NULL, 5, '[]', '2026-11-27 21:13:27.6817+00');


--
-- Data for Name: claims; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.claims VALUES ('weekly.pvp', '2026-W47', 'player-00000001', 'grant-1', '2026-11-27 21:13:34.886885+00', 17, 149, NULL, NULL, 25, '2026-11-21 03:37:00+00', NULL, 4);
INSERT INTO public.claims VALUES ('weekly.pvp', '2026-W47', 'player-00000005', 'grant-2', '2026-11-27 21:13:34.988552+00', 21, 100, NULL, NULL, 25, '2026-11-21 01:33:00+00', NULL, 4);
INSERT INTO public.claims VALUES ('daily.laps', '2026-11-26', 'y01', 'grant-3', '2026-11-27 21:13:35.011164+00', 1, 0, 0, 'podium', 28, '2026-11-26 08:00:00+00', NULL, 3);
INSERT INTO public.claims VALUES ('monthly.sprint', '2026-11', 'player-00000009', 'grant-4', '2026-11-27 21:13:35.027136+00', 13, 280, NULL, NULL, 15, '2026-11-04 00:47:00+00', NULL, 5);
INSERT INTO public.claims VALUES ('season.cup', 's1', 'player-00000004', 'grant-5', '2026-11-27 21:13:35.049371+00', 15, 477, NULL, NULL, 18, '2026-11-12 19:06:00+00', NULL, 1);


--
-- Data for Name: corrections; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.corrections VALUES (1, NULL, NULL, NULL, NULL, 'test phase', '2026-11-27 21:13:31.289649+00', 'weekly.pvp', 7);
INSERT INTO public.corrections VALUES (2, '2026-09-01', 'player-00000003', 268, 9999, 'restored after a lost connection', '2026-11-27 21:13:35.155097+00', NULL, NULL);
INSERT INTO public.corrections VALUES (3, '2026-09-01', 'player-00000007', 318, NULL, 'cheating', '2026-11-27 21:13:35.781779+00', NULL, NULL);
INSERT INTO public.corrections VALUES (4, '2026-10-01', 'bob', 700, 650, 'double-counted match', '2026-11-27 21:13:36.285784+00', NULL, NULL);
INSERT INTO public.corrections VALUES (5, NULL, 'player-00000002', 289, 5, 'timing fault', '2026-11-27 21:13:36.296877+00', 'daily.laps', 3);
INSERT INTO public.corrections VALUES (6, NULL, 'y03', 61500, NULL, 'shortcut', '2026-11-27 21:13:36.387002+00', 'daily.laps', 3);
INSERT INTO public.corrections VALUES (7, NULL, 'player-00000005', 100, 10000, 'server crash', '2026-11-27 21:13:36.553155+00', 'weekly.pvp', 4);
INSERT INTO public.corrections VALUES (8, NULL, 'player-00000004', 477, NULL, 'banned', '2026-11-27 21:13:36.661623+00', 'season.cup', 1);


--
-- Data for Name: final_ranks_2026_08_v1; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 1, 'player-00000014', 2783, '2026-08-31 07:13:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 2, 'player-00000020', 1570, '2026-08-20 02:51:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 3, 'player-00000023', 1011, '2026-08-22 21:12:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 4, 'player-00000006', 950, '2026-08-19 12:45:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 5, 'player-00000015', 911, '2026-08-22 01:43:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 6, 'player-00000005', 906, '2026-08-26 06:16:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 7, 'player-00000002', 829, '2026-08-29 13:34:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 8, 'player-00000021', 412, '2026-08-02 13:58:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 9, 'player-00000013', 393, '2026-08-05 21:00:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 10, 'player-00000024', 382, '2026-08-17 23:28:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 11, 'player-00000003', 377, '2026-08-23 18:13:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 12, 'player-00000019', 367, '2026-08-08 20:23:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 13, 'player-00000001', 286, '2026-08-11 00:43:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 14, 'player-00000017', 235, '2026-08-17 17:00:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 15, 'player-00000009', 228, '2026-08-07 12:55:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 16, 'player-00000016', 225, '2026-08-27 19:55:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 17, 'player-00000007', 225, '2026-08-31 22:14:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 18, 'player-00000004', 209, '2026-08-13 05:56:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 19, 'player-00000018', 198, '2026-08-08 07:28:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 20, 'player-00000022', 135, '2026-08-01 07:10:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 21, 'player-00000008', 116, '2026-08-22 22:06:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 22, 'player-00000012', 115, '2026-08-22 01:41:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 23, 'player-00000011', 100, '2026-08-17 02:29:00+00');
INSERT INTO public.final_ranks_2026_08_v1 VALUES ('2026-08-01', 24, 'player-00000010', 79, '2026-08-08 02:26:00+00');


--
-- Data for Name: final_ranks_2026_09_v3; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 1, 'player-00000003', 9999, '2026-11-27 21:13:35.155097+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 2, 'player-00000005', 1635, '2026-09-13 08:35:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 3, 'player-00000027', 1547, '2026-09-19 21:51:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 4, 'player-00000004', 961, '2026-09-10 11:20:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 5, 'player-00000023', 737, '2026-09-27 01:40:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 6, 'player-00000018', 625, '2026-09-13 08:37:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 7, 'player-00000030', 551, '2026-09-14 20:43:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 8, 'player-00000022', 493, '2026-09-04 19:54:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 9, 'player-00000009', 374, '2026-09-28 10:06:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 10, 'player-00000024', 363, '2026-09-24 10:00:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 11, 'player-00000025', 353, '2026-09-24 22:16:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 12, 'player-00000014', 327, '2026-09-22 08:17:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 13, 'player-00000012', 284, '2026-09-25 15:12:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 14, 'player-00000015', 252, '2026-09-02 08:58:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 15, 'player-00000029', 238, '2026-09-30 16:47:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 16, 'player-00000026', 234, '2026-09-19 20:02:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 17, 'player-00000001', 207, '2026-09-24 17:16:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 18, 'player-00000020', 191, '2026-09-07 15:31:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 19, 'player-00000002', 153, '2026-09-22 08:38:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 20, 'player-00000011', 142, '2026-09-30 21:17:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 21, 'player-00000013', 136, '2026-09-25 02:06:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 22, 'player-00000010', 131, '2026-09-16 13:12:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 23, 'player-00000028', 126, '2026-09-30 14:10:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 24, 'player-00000016', 87, '2026-09-11 10:49:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 25, 'player-00000006', 85, '2026-09-08 02:40:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 26, 'player-00000019', 43, '2026-09-06 09:24:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 27, 'player-00000021', 35, '2026-09-07 16:15:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 28, 'player-00000008', 35, '2026-09-17 19:32:00+00');
INSERT INTO public.final_ranks_2026_09_v3 VALUES ('2026-09-01', 29, 'player-00000017', 9, '2026-09-18 20:42:00+00');


--
-- Data for Name: months; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.months VALUES ('2026-10-01', 'OPEN', '2026-11-27 21:13:31.174639+00', '2026-11-01 00:00:00+00', NULL, NULL, NULL, 0);
INSERT INTO public.months VALUES ('2026-08-01', 'CLOSED', '2026-11-27 21:13:22.291982+00', '2026-09-01 00:00:00+00', '2026-11-27 21:13:32.27308+00', 24, 'e1dfa6f5f4bf16fa40e801f80e281056c378d241d5b1399f5e2ee3bb51d13848', 1);
INSERT INTO public.months VALUES ('2026-09-01', 'CLOSED', '2026-11-27 21:13:24.544631+00', '2026-10-01 00:00:00+00', '2026-11-27 21:13:33.523866+00', 29, '92607c95a2e5950a09b2729d59d74820d5b741973b10a39248f3f64f527cbe0a', 3);


--
-- Data for Name: outbox; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.outbox VALUES ('evt_fba00b04c22be0411049a0e4e1d6ea2b', 'month.corrected', '2026-09-01', '{"id":"evt_fba00b04c22be0411049a0e4e1d6ea2b","type":"month.corrected","month":"2026-09","closedAt":"2026-11-27T21:13:33.523866Z","participants":30,"digest":"2241527a8e301372e66ec06475b65db7c388715c071b356c1662d050fd210c72","top":[{"rank":1,"playerId":"player-00000003","name":"TurboLynx462","score":9999},{"rank":2,"playerId":"player-00000005","name":"StormOwl536","score":1635},{"rank":3,"playerId":"player-00000027","name":"AncientPaladin848","score":1547},{"rank":4,"playerId":"player-00000004","name":"FrozenGecko27","score":961},{"rank":5,"playerId":"player-00000023","name":"HyperStallion36","score":737},{"rank":6,"playerId":"player-00000018","name":"EpicHornet746","score":625},{"rank":7,"playerId":"player-00000030","name":"RapidHornet691","score":551},{"rank":8,"playerId":"player-00000022","name":"GoldenOwl708","score":493},{"rank":9,"playerId":"player-00000009","name":"HiddenBandit990","score":374},{"rank":10,"playerId":"player-00000024","name":"SilentComet396","score":363},{"rank":11,"playerId":"player-00000025","name":"NobleMoose828","score":353},{"rank":12,"playerId":"player-00000014","name":"NobleSquid229","score":327},{"rank":13,"playerId":"player-00000007","name":"HyperSamurai250","score":318},{"rank":14,"playerId":"player-00000012","name":"ThunderSquid372","score":284},{"rank":15,"playerId":"player-00000015","name":"VelvetPaladin75","score":252},{"rank":16,"playerId":"player-00000029","name":"ShadowDragon206","score":238},{"rank":17,"playerId":"player-00000026","name":"HappyOwl321","score":234},{"rank":18,"playerId":"player-00000001","name":"IronMoose96","score":207},{"rank":19,"playerId":"player-00000020","name":"GoldenCoyote388","score":191},{"rank":20,"playerId":"player-00000002","name":"HiddenHawk457","score":153},{"rank":21,"playerId":"player-00000011","name":"FrostOtter859","score":142},{"rank":22,"playerId":"player-00000013","name":"CleverCoyote179","score":136},{"rank":23,"playerId":"player-00000010","name":"FuzzyViper176","score":131},{"rank":24,"playerId":"player-00000028","name":"FrostPirate935","score":126},{"rank":25,"playerId":"player-00000016","name":"RogueGoblin710","score":87},{"rank":26,"playerId":"player-00000006","name":"FrozenPanda231","score":85},{"rank":27,"playerId":"player-00000019","name":"ElectricBandit31","score":43},{"rank":28,"playerId":"player-00000021","name":"HyperMantis129","score":35},{"rank":29,"playerId":"player-00000008","name":"MysticBadger693","score":35},{"rank":30,"playerId":"player-00000017","name":"LazyCoyote95","score":9}],"correction":{"id":"2","playerId":"player-00000003","before":268,"after":9999,"reason":"restored after a lost connection","at":"2026-11-27T21:13:35.155097Z"}}', '2026-11-27 21:13:35.765216+00', 0, '2026-11-27 21:13:35.765216+00', NULL, NULL, NULL, NULL);
INSERT INTO public.outbox VALUES ('evt_751c7b65b2f5b33ed467ab8bf12b6a27', 'period.closed', NULL, '{"id":"evt_751c7b65b2f5b33ed467ab8bf12b6a27","type":"period.closed","board":"daily.laps","period":"2026-11-26","startsAt":"2026-11-25T23:00:00Z","endsAt":"2026-11-26T23:00:00Z","closedAt":"2026-11-27T21:13:34.524636805Z","participants":28,"digest":"daf8b90f4f89e130c60d7a96f9b7f9698a7e5242ba8a94bd4cd273d48e71394e","top":[{"rank":1,"playerId":"y01","name":"Alice","score":0,"tier":"podium","metadata":{"car":"red","lap":0}},{"rank":2,"playerId":"player-00000020","name":"GoldenCoyote388","score":39,"tier":"top","metadata":null},{"rank":3,"playerId":"player-00000016","name":"RogueGoblin710","score":86,"tier":"top","metadata":null},{"rank":4,"playerId":"player-00000006","name":"FrozenPanda231","score":96,"tier":"top","metadata":null},{"rank":5,"playerId":"player-00000004","name":"FrozenGecko27","score":100,"tier":"top","metadata":null},{"rank":6,"playerId":"player-00000018","name":"EpicHornet746","score":100,"tier":"top","metadata":null},{"rank":7,"playerId":"player-00000009","name":"HiddenBandit990","score":121,"tier":"top","metadata":null},{"rank":8,"playerId":"player-00000015","name":"VelvetPaladin75","score":137,"tier":null,"metadata":null},{"rank":9,"playerId":"player-00000003","name":"TurboLynx462","score":172,"tier":null,"metadata":null},{"rank":10,"playerId":"player-00000010","name":"FuzzyViper176","score":178,"tier":null,"metadata":null},{"rank":11,"playerId":"player-00000002","name":"HiddenHawk457","score":289,"tier":null,"metadata":null},{"rank":12,"playerId":"player-00000005","name":"StormOwl536","score":331,"tier":null,"metadata":null},{"rank":13,"playerId":"player-00000008","name":"MysticBadger693","score":365,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000014","name":"NobleSquid229","score":365,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000013","name":"CleverCoyote179","score":376,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000001","name":"IronMoose96","score":399,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000019","name":"ElectricBandit31","score":490,"tier":null,"metadata":null},{"rank":18,"playerId":"player-00000017","name":"LazyCoyote95","score":518,"tier":null,"metadata":null},{"rank":19,"playerId":"player-00000007","name":"HyperSamurai250","score":603,"tier":null,"metadata":null},{"rank":20,"playerId":"player-00000012","name":"ThunderSquid372","score":815,"tier":null,"metadata":null},{"rank":21,"playerId":"player-00000011","name":"FrostOtter859","score":1413,"tier":null,"metadata":null},{"rank":22,"playerId":"y02","name":"Bob","score":60000,"tier":null,"metadata":null},{"rank":23,"playerId":"y05","name":"Émile","score":61000,"tier":null,"metadata":{"car":"blue","lap":4}},{"rank":24,"playerId":"y06","name":"Fatima","score":61250,"tier":null,"metadata":{"car":"green","lap":5}},{"rank":25,"playerId":"y07","name":"Grzegorz Ż","score":61500,"tier":null,"metadata":{"car":"red","lap":6}},{"rank":26,"playerId":"y03","name":"Carol","score":61500,"tier":null,"metadata":{"car":"green","lap":2}},{"rank":27,"playerId":"y04","name":"Dave","score":61750,"tier":null,"metadata":{"car":"red","lap":3}},{"rank":28,"playerId":"y08","name":"Hiroshi 広","score":100000,"tier":null,"metadata":{"car":"blue","lap":7}}]}', '2026-11-27 21:13:34.568045+00', 1, '2026-11-27 21:13:58.027787+00', NULL, 'connection refused: Post "http://127.0.0.1:1/…": dial tcp 127.0.0.1:1: connect: connection refused', 'daily.laps', 3);
INSERT INTO public.outbox VALUES ('evt_7d31c89346e533087fe5fe50fc5487dc', 'period.closed', NULL, '{"id":"evt_7d31c89346e533087fe5fe50fc5487dc","type":"period.closed","board":"weekly.pvp","period":"2026-W47","startsAt":"2026-11-16T00:00:00Z","endsAt":"2026-11-23T00:00:00Z","closedAt":"2026-11-27T21:13:34.660990845Z","participants":25,"digest":"9cb5b8ebb9c6076403ddc5b8d9f5f12a4f8ec02625a5b985810481ea40d98a45","top":[{"rank":1,"playerId":"player-00000021","name":"HyperMantis129","score":1005,"tier":"silver","metadata":null},{"rank":2,"playerId":"player-00000014","name":"NobleSquid229","score":634,"tier":"silver","metadata":null},{"rank":3,"playerId":"player-00000017","name":"LazyCoyote95","score":494,"tier":"bronze","metadata":null},{"rank":4,"playerId":"player-00000024","name":"SilentComet396","score":469,"tier":"bronze","metadata":null},{"rank":5,"playerId":"player-00000011","name":"FrostOtter859","score":465,"tier":"bronze","metadata":null},{"rank":6,"playerId":"player-00000010","name":"FuzzyViper176","score":435,"tier":"bronze","metadata":null},{"rank":7,"playerId":"player-00000012","name":"ThunderSquid372","score":423,"tier":"bronze","metadata":null},{"rank":8,"playerId":"player-00000009","name":"HiddenBandit990","score":397,"tier":"bronze","metadata":null},{"rank":9,"playerId":"player-00000007","name":"HyperSamurai250","score":315,"tier":"bronze","metadata":null},{"rank":10,"playerId":"player-00000015","name":"VelvetPaladin75","score":315,"tier":"bronze","metadata":null},{"rank":11,"playerId":"player-00000004","name":"FrozenGecko27","score":314,"tier":"bronze","metadata":null},{"rank":12,"playerId":"player-00000016","name":"RogueGoblin710","score":311,"tier":"bronze","metadata":null},{"rank":13,"playerId":"player-00000013","name":"CleverCoyote179","score":302,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000025","name":"NobleMoose828","score":237,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000023","name":"HyperStallion36","score":200,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000003","name":"TurboLynx462","score":179,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000001","name":"IronMoose96","score":149,"tier":null,"metadata":null},{"rank":18,"playerId":"player-00000008","name":"MysticBadger693","score":142,"tier":null,"metadata":null},{"rank":19,"playerId":"player-00000022","name":"GoldenOwl708","score":139,"tier":null,"metadata":null},{"rank":20,"playerId":"player-00000006","name":"FrozenPanda231","score":136,"tier":null,"metadata":null},{"rank":21,"playerId":"player-00000005","name":"StormOwl536","score":100,"tier":null,"metadata":null},{"rank":22,"playerId":"player-00000002","name":"HiddenHawk457","score":92,"tier":null,"metadata":null},{"rank":23,"playerId":"player-00000019","name":"ElectricBandit31","score":89,"tier":null,"metadata":null},{"rank":24,"playerId":"player-00000020","name":"GoldenCoyote388","score":66,"tier":null,"metadata":null},{"rank":25,"playerId":"player-00000018","name":"EpicHornet746","score":30,"tier":null,"metadata":null}]}', '2026-11-27 21:13:34.674929+00', 1, '2026-11-27 21:13:58.037167+00', NULL, 'connection refused: Post "http://127.0.0.1:1/…": dial tcp 127.0.0.1:1: connect: connection refused', 'weekly.pvp', 4);
INSERT INTO public.outbox VALUES ('evt_9cf3198e1195cc6b153b18b31fa4764b', 'period.closed', NULL, '{"id":"evt_9cf3198e1195cc6b153b18b31fa4764b","type":"period.closed","board":"season.cup","period":"s1","startsAt":"2026-11-07T00:00:00Z","endsAt":"2026-11-25T00:00:00Z","closedAt":"2026-11-27T21:13:34.846369599Z","participants":18,"digest":"7252eafb029700b49382fb3a3f3586761d89458073df25bf127c57b4bec84976","top":[{"rank":1,"playerId":"player-00000014","name":"NobleSquid229","score":101,"tier":null,"metadata":null},{"rank":2,"playerId":"player-00000016","name":"RogueGoblin710","score":103,"tier":null,"metadata":null},{"rank":3,"playerId":"player-00000001","name":"IronMoose96","score":117,"tier":null,"metadata":null},{"rank":4,"playerId":"player-00000005","name":"StormOwl536","score":144,"tier":null,"metadata":null},{"rank":5,"playerId":"player-00000008","name":"MysticBadger693","score":160,"tier":null,"metadata":null},{"rank":6,"playerId":"player-00000013","name":"CleverCoyote179","score":168,"tier":null,"metadata":null},{"rank":7,"playerId":"player-00000011","name":"FrostOtter859","score":169,"tier":null,"metadata":null},{"rank":8,"playerId":"player-00000015","name":"VelvetPaladin75","score":214,"tier":null,"metadata":null},{"rank":9,"playerId":"player-00000009","name":"HiddenBandit990","score":267,"tier":null,"metadata":null},{"rank":10,"playerId":"player-00000018","name":"EpicHornet746","score":275,"tier":null,"metadata":null},{"rank":11,"playerId":"player-00000006","name":"FrozenPanda231","score":364,"tier":null,"metadata":null},{"rank":12,"playerId":"player-00000003","name":"TurboLynx462","score":368,"tier":null,"metadata":null},{"rank":13,"playerId":"player-00000007","name":"HyperSamurai250","score":432,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000017","name":"LazyCoyote95","score":439,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000004","name":"FrozenGecko27","score":477,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000012","name":"ThunderSquid372","score":553,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000002","name":"HiddenHawk457","score":700,"tier":null,"metadata":null},{"rank":18,"playerId":"player-00000010","name":"FuzzyViper176","score":1167,"tier":null,"metadata":null}]}', '2026-11-27 21:13:34.85803+00', 1, '2026-11-27 21:13:58.017783+00', NULL, 'connection refused: Post "http://127.0.0.1:1/…": dial tcp 127.0.0.1:1: connect: connection refused', 'season.cup', 1);
INSERT INTO public.outbox VALUES ('evt_5f42ec5af7112996af1bc91e69911d05', 'month.corrected', '2026-09-01', '{"id":"evt_5f42ec5af7112996af1bc91e69911d05","type":"month.corrected","month":"2026-09","closedAt":"2026-11-27T21:13:33.523866Z","participants":29,"digest":"92607c95a2e5950a09b2729d59d74820d5b741973b10a39248f3f64f527cbe0a","top":[{"rank":1,"playerId":"player-00000003","name":"TurboLynx462","score":9999},{"rank":2,"playerId":"player-00000005","name":"StormOwl536","score":1635},{"rank":3,"playerId":"player-00000027","name":"AncientPaladin848","score":1547},{"rank":4,"playerId":"player-00000004","name":"FrozenGecko27","score":961},{"rank":5,"playerId":"player-00000023","name":"HyperStallion36","score":737},{"rank":6,"playerId":"player-00000018","name":"EpicHornet746","score":625},{"rank":7,"playerId":"player-00000030","name":"RapidHornet691","score":551},{"rank":8,"playerId":"player-00000022","name":"GoldenOwl708","score":493},{"rank":9,"playerId":"player-00000009","name":"HiddenBandit990","score":374},{"rank":10,"playerId":"player-00000024","name":"SilentComet396","score":363},{"rank":11,"playerId":"player-00000025","name":"NobleMoose828","score":353},{"rank":12,"playerId":"player-00000014","name":"NobleSquid229","score":327},{"rank":13,"playerId":"player-00000012","name":"ThunderSquid372","score":284},{"rank":14,"playerId":"player-00000015","name":"VelvetPaladin75","score":252},{"rank":15,"playerId":"player-00000029","name":"ShadowDragon206","score":238},{"rank":16,"playerId":"player-00000026","name":"HappyOwl321","score":234},{"rank":17,"playerId":"player-00000001","name":"IronMoose96","score":207},{"rank":18,"playerId":"player-00000020","name":"GoldenCoyote388","score":191},{"rank":19,"playerId":"player-00000002","name":"HiddenHawk457","score":153},{"rank":20,"playerId":"player-00000011","name":"FrostOtter859","score":142},{"rank":21,"playerId":"player-00000013","name":"CleverCoyote179","score":136},{"rank":22,"playerId":"player-00000010","name":"FuzzyViper176","score":131},{"rank":23,"playerId":"player-00000028","name":"FrostPirate935","score":126},{"rank":24,"playerId":"player-00000016","name":"RogueGoblin710","score":87},{"rank":25,"playerId":"player-00000006","name":"FrozenPanda231","score":85},{"rank":26,"playerId":"player-00000019","name":"ElectricBandit31","score":43},{"rank":27,"playerId":"player-00000021","name":"HyperMantis129","score":35},{"rank":28,"playerId":"player-00000008","name":"MysticBadger693","score":35},{"rank":29,"playerId":"player-00000017","name":"LazyCoyote95","score":9}],"correction":{"id":"3","playerId":"player-00000007","before":318,"after":null,"reason":"cheating","at":"2026-11-27T21:13:35.781779Z"}}', '2026-11-27 21:13:36.122176+00', 0, '2026-11-27 21:13:36.122176+00', NULL, NULL, NULL, NULL);
INSERT INTO public.outbox VALUES ('evt_be15f8463b3dd012c25de660a914430e', 'period.corrected', NULL, '{"id":"evt_be15f8463b3dd012c25de660a914430e","type":"period.corrected","board":"daily.laps","period":"2026-11-26","startsAt":"2026-11-25T23:00:00Z","endsAt":"2026-11-26T23:00:00Z","closedAt":"2026-11-27T21:13:34.524636Z","participants":28,"digest":"372c8bc5c9341a550eb400277fd898b7eef2169492559cddb707386737bd7391","top":[{"rank":1,"playerId":"y01","name":"Alice","score":0,"tier":"podium","metadata":{"car":"red","lap":0}},{"rank":2,"playerId":"player-00000002","name":"HiddenHawk457","score":5,"tier":"top","metadata":null},{"rank":3,"playerId":"player-00000020","name":"GoldenCoyote388","score":39,"tier":"top","metadata":null},{"rank":4,"playerId":"player-00000016","name":"RogueGoblin710","score":86,"tier":"top","metadata":null},{"rank":5,"playerId":"player-00000006","name":"FrozenPanda231","score":96,"tier":"top","metadata":null},{"rank":6,"playerId":"player-00000004","name":"FrozenGecko27","score":100,"tier":"top","metadata":null},{"rank":7,"playerId":"player-00000018","name":"EpicHornet746","score":100,"tier":"top","metadata":null},{"rank":8,"playerId":"player-00000009","name":"HiddenBandit990","score":121,"tier":null,"metadata":null},{"rank":9,"playerId":"player-00000015","name":"VelvetPaladin75","score":137,"tier":null,"metadata":null},{"rank":10,"playerId":"player-00000003","name":"TurboLynx462","score":172,"tier":null,"metadata":null},{"rank":11,"playerId":"player-00000010","name":"FuzzyViper176","score":178,"tier":null,"metadata":null},{"rank":12,"playerId":"player-00000005","name":"StormOwl536","score":331,"tier":null,"metadata":null},{"rank":13,"playerId":"player-00000008","name":"MysticBadger693","score":365,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000014","name":"NobleSquid229","score":365,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000013","name":"CleverCoyote179","score":376,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000001","name":"IronMoose96","score":399,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000019","name":"ElectricBandit31","score":490,"tier":null,"metadata":null},{"rank":18,"playerId":"player-00000017","name":"LazyCoyote95","score":518,"tier":null,"metadata":null},{"rank":19,"playerId":"player-00000007","name":"HyperSamurai250","score":603,"tier":null,"metadata":null},{"rank":20,"playerId":"player-00000012","name":"ThunderSquid372","score":815,"tier":null,"metadata":null},{"rank":21,"playerId":"player-00000011","name":"FrostOtter859","score":1413,"tier":null,"metadata":null},{"rank":22,"playerId":"y02","name":"Bob","score":60000,"tier":null,"metadata":null},{"rank":23,"playerId":"y05","name":"Émile","score":61000,"tier":null,"metadata":{"car":"blue","lap":4}},{"rank":24,"playerId":"y06","name":"Fatima","score":61250,"tier":null,"metadata":{"car":"green","lap":5}},{"rank":25,"playerId":"y07","name":"Grzegorz Ż","score":61500,"tier":null,"metadata":{"car":"red","lap":6}},{"rank":26,"playerId":"y03","name":"Carol","score":61500,"tier":null,"metadata":{"car":"green","lap":2}},{"rank":27,"playerId":"y04","name":"Dave","score":61750,"tier":null,"metadata":{"car":"red","lap":3}},{"rank":28,"playerId":"y08","name":"Hiroshi 広","score":100000,"tier":null,"metadata":{"car":"blue","lap":7}}],"correction":{"id":"5","playerId":"player-00000002","before":289,"after":5,"reason":"timing fault","at":"2026-11-27T21:13:36.296877Z"}}', '2026-11-27 21:13:36.341582+00', 0, '2026-11-27 21:13:36.341582+00', NULL, NULL, 'daily.laps', 3);
INSERT INTO public.outbox VALUES ('evt_cbaf6ea7e22f100c0ab0e3869ee90124', 'period.corrected', NULL, '{"id":"evt_cbaf6ea7e22f100c0ab0e3869ee90124","type":"period.corrected","board":"daily.laps","period":"2026-11-26","startsAt":"2026-11-25T23:00:00Z","endsAt":"2026-11-26T23:00:00Z","closedAt":"2026-11-27T21:13:34.524636Z","participants":27,"digest":"9b33588c76b73f2df31637b6e571c79e667fa76f8baf0eade9ee8ebffb1e31f5","top":[{"rank":1,"playerId":"y01","name":"Alice","score":0,"tier":"podium","metadata":{"car":"red","lap":0}},{"rank":2,"playerId":"player-00000002","name":"HiddenHawk457","score":5,"tier":"top","metadata":null},{"rank":3,"playerId":"player-00000020","name":"GoldenCoyote388","score":39,"tier":"top","metadata":null},{"rank":4,"playerId":"player-00000016","name":"RogueGoblin710","score":86,"tier":"top","metadata":null},{"rank":5,"playerId":"player-00000006","name":"FrozenPanda231","score":96,"tier":"top","metadata":null},{"rank":6,"playerId":"player-00000004","name":"FrozenGecko27","score":100,"tier":"top","metadata":null},{"rank":7,"playerId":"player-00000018","name":"EpicHornet746","score":100,"tier":null,"metadata":null},{"rank":8,"playerId":"player-00000009","name":"HiddenBandit990","score":121,"tier":null,"metadata":null},{"rank":9,"playerId":"player-00000015","name":"VelvetPaladin75","score":137,"tier":null,"metadata":null},{"rank":10,"playerId":"player-00000003","name":"TurboLynx462","score":172,"tier":null,"metadata":null},{"rank":11,"playerId":"player-00000010","name":"FuzzyViper176","score":178,"tier":null,"metadata":null},{"rank":12,"playerId":"player-00000005","name":"StormOwl536","score":331,"tier":null,"metadata":null},{"rank":13,"playerId":"player-00000008","name":"MysticBadger693","score":365,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000014","name":"NobleSquid229","score":365,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000013","name":"CleverCoyote179","score":376,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000001","name":"IronMoose96","score":399,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000019","name":"ElectricBandit31","score":490,"tier":null,"metadata":null},{"rank":18,"playerId":"player-00000017","name":"LazyCoyote95","score":518,"tier":null,"metadata":null},{"rank":19,"playerId":"player-00000007","name":"HyperSamurai250","score":603,"tier":null,"metadata":null},{"rank":20,"playerId":"player-00000012","name":"ThunderSquid372","score":815,"tier":null,"metadata":null},{"rank":21,"playerId":"player-00000011","name":"FrostOtter859","score":1413,"tier":null,"metadata":null},{"rank":22,"playerId":"y02","name":"Bob","score":60000,"tier":null,"metadata":null},{"rank":23,"playerId":"y05","name":"Émile","score":61000,"tier":null,"metadata":{"car":"blue","lap":4}},{"rank":24,"playerId":"y06","name":"Fatima","score":61250,"tier":null,"metadata":{"car":"green","lap":5}},{"rank":25,"playerId":"y07","name":"Grzegorz Ż","score":61500,"tier":null,"metadata":{"car":"red","lap":6}},{"rank":26,"playerId":"y04","name":"Dave","score":61750,"tier":null,"metadata":{"car":"red","lap":3}},{"rank":27,"playerId":"y08","name":"Hiroshi 広","score":100000,"tier":null,"metadata":{"car":"blue","lap":7}}],"correction":{"id":"6","playerId":"y03","before":61500,"after":null,"reason":"shortcut","at":"2026-11-27T21:13:36.387002Z"}}', '2026-11-27 21:13:36.49379+00', 0, '2026-11-27 21:13:36.49379+00', NULL, NULL, 'daily.laps', 3);
INSERT INTO public.outbox VALUES ('evt_bb5a8fd31945fb7534d9487de306f843', 'period.corrected', NULL, '{"id":"evt_bb5a8fd31945fb7534d9487de306f843","type":"period.corrected","board":"weekly.pvp","period":"2026-W47","startsAt":"2026-11-16T00:00:00Z","endsAt":"2026-11-23T00:00:00Z","closedAt":"2026-11-27T21:13:34.66099Z","participants":25,"digest":"652721c8b01ad21385af4145e019c0145f76909cac5889a2c20ad97394d74c45","top":[{"rank":1,"playerId":"player-00000005","name":"StormOwl536","score":10000,"tier":"silver","metadata":null},{"rank":2,"playerId":"player-00000021","name":"HyperMantis129","score":1005,"tier":"silver","metadata":null},{"rank":3,"playerId":"player-00000014","name":"NobleSquid229","score":634,"tier":"bronze","metadata":null},{"rank":4,"playerId":"player-00000017","name":"LazyCoyote95","score":494,"tier":"bronze","metadata":null},{"rank":5,"playerId":"player-00000024","name":"SilentComet396","score":469,"tier":"bronze","metadata":null},{"rank":6,"playerId":"player-00000011","name":"FrostOtter859","score":465,"tier":"bronze","metadata":null},{"rank":7,"playerId":"player-00000010","name":"FuzzyViper176","score":435,"tier":"bronze","metadata":null},{"rank":8,"playerId":"player-00000012","name":"ThunderSquid372","score":423,"tier":"bronze","metadata":null},{"rank":9,"playerId":"player-00000009","name":"HiddenBandit990","score":397,"tier":"bronze","metadata":null},{"rank":10,"playerId":"player-00000007","name":"HyperSamurai250","score":315,"tier":"bronze","metadata":null},{"rank":11,"playerId":"player-00000015","name":"VelvetPaladin75","score":315,"tier":"bronze","metadata":null},{"rank":12,"playerId":"player-00000004","name":"FrozenGecko27","score":314,"tier":"bronze","metadata":null},{"rank":13,"playerId":"player-00000016","name":"RogueGoblin710","score":311,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000013","name":"CleverCoyote179","score":302,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000025","name":"NobleMoose828","score":237,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000023","name":"HyperStallion36","score":200,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000003","name":"TurboLynx462","score":179,"tier":null,"metadata":null},{"rank":18,"playerId":"player-00000001","name":"IronMoose96","score":149,"tier":null,"metadata":null},{"rank":19,"playerId":"player-00000008","name":"MysticBadger693","score":142,"tier":null,"metadata":null},{"rank":20,"playerId":"player-00000022","name":"GoldenOwl708","score":139,"tier":null,"metadata":null},{"rank":21,"playerId":"player-00000006","name":"FrozenPanda231","score":136,"tier":null,"metadata":null},{"rank":22,"playerId":"player-00000002","name":"HiddenHawk457","score":92,"tier":null,"metadata":null},{"rank":23,"playerId":"player-00000019","name":"ElectricBandit31","score":89,"tier":null,"metadata":null},{"rank":24,"playerId":"player-00000020","name":"GoldenCoyote388","score":66,"tier":null,"metadata":null},{"rank":25,"playerId":"player-00000018","name":"EpicHornet746","score":30,"tier":null,"metadata":null}],"correction":{"id":"7","playerId":"player-00000005","before":100,"after":10000,"reason":"server crash","at":"2026-11-27T21:13:36.553155Z"},"changedClaims":[{"playerId":"player-00000001","claimId":"grant-1","claimedAt":"2026-11-27T21:13:34.886885Z","before":{"rank":17,"score":149,"tier":null},"after":{"rank":18,"score":149,"tier":null}},{"playerId":"player-00000005","claimId":"grant-2","claimedAt":"2026-11-27T21:13:34.988552Z","before":{"rank":21,"score":100,"tier":null},"after":{"rank":1,"score":10000,"tier":"silver"}}]}', '2026-11-27 21:13:36.633524+00', 0, '2026-11-27 21:13:36.633524+00', NULL, NULL, 'weekly.pvp', 4);
INSERT INTO public.outbox VALUES ('evt_4d7cc9b122533c430a663f89744064f6', 'period.corrected', NULL, '{"id":"evt_4d7cc9b122533c430a663f89744064f6","type":"period.corrected","board":"season.cup","period":"s1","startsAt":"2026-11-07T00:00:00Z","endsAt":"2026-11-25T00:00:00Z","closedAt":"2026-11-27T21:13:34.846369Z","participants":17,"digest":"2bffaaab4143e71725e1136e6a613db847c3658984eb2696ada59b5830a0fe51","top":[{"rank":1,"playerId":"player-00000014","name":"NobleSquid229","score":101,"tier":null,"metadata":null},{"rank":2,"playerId":"player-00000016","name":"RogueGoblin710","score":103,"tier":null,"metadata":null},{"rank":3,"playerId":"player-00000001","name":"IronMoose96","score":117,"tier":null,"metadata":null},{"rank":4,"playerId":"player-00000005","name":"StormOwl536","score":144,"tier":null,"metadata":null},{"rank":5,"playerId":"player-00000008","name":"MysticBadger693","score":160,"tier":null,"metadata":null},{"rank":6,"playerId":"player-00000013","name":"CleverCoyote179","score":168,"tier":null,"metadata":null},{"rank":7,"playerId":"player-00000011","name":"FrostOtter859","score":169,"tier":null,"metadata":null},{"rank":8,"playerId":"player-00000015","name":"VelvetPaladin75","score":214,"tier":null,"metadata":null},{"rank":9,"playerId":"player-00000009","name":"HiddenBandit990","score":267,"tier":null,"metadata":null},{"rank":10,"playerId":"player-00000018","name":"EpicHornet746","score":275,"tier":null,"metadata":null},{"rank":11,"playerId":"player-00000006","name":"FrozenPanda231","score":364,"tier":null,"metadata":null},{"rank":12,"playerId":"player-00000003","name":"TurboLynx462","score":368,"tier":null,"metadata":null},{"rank":13,"playerId":"player-00000007","name":"HyperSamurai250","score":432,"tier":null,"metadata":null},{"rank":14,"playerId":"player-00000017","name":"LazyCoyote95","score":439,"tier":null,"metadata":null},{"rank":15,"playerId":"player-00000012","name":"ThunderSquid372","score":553,"tier":null,"metadata":null},{"rank":16,"playerId":"player-00000002","name":"HiddenHawk457","score":700,"tier":null,"metadata":null},{"rank":17,"playerId":"player-00000010","name":"FuzzyViper176","score":1167,"tier":null,"metadata":null}],"correction":{"id":"8","playerId":"player-00000004","before":477,"after":null,"reason":"banned","at":"2026-11-27T21:13:36.661623Z"},"changedClaims":[{"playerId":"player-00000004","claimId":"grant-5","claimedAt":"2026-11-27T21:13:35.049371Z","before":{"rank":15,"score":477,"tier":null},"after":null}]}', '2026-11-27 21:13:36.681524+00', 0, '2026-11-27 21:13:36.681524+00', NULL, NULL, 'season.cup', 1);
INSERT INTO public.outbox VALUES ('evt_d01abf3cd7a66bc3217cc00bd47a1132', 'month.closed', '2026-09-01', '{"id":"evt_d01abf3cd7a66bc3217cc00bd47a1132","type":"month.closed","month":"2026-09","closedAt":"2026-11-27T21:13:33.523866484Z","participants":30,"digest":"23e3a1b78f2f7a1caae0c02ba97a84a6bdf300a53e0f4bbf7c6cc6c7fd602c48","top":[{"rank":1,"playerId":"player-00000005","name":"StormOwl536","score":1635},{"rank":2,"playerId":"player-00000027","name":"AncientPaladin848","score":1547},{"rank":3,"playerId":"player-00000004","name":"FrozenGecko27","score":961},{"rank":4,"playerId":"player-00000023","name":"HyperStallion36","score":737},{"rank":5,"playerId":"player-00000018","name":"EpicHornet746","score":625},{"rank":6,"playerId":"player-00000030","name":"RapidHornet691","score":551},{"rank":7,"playerId":"player-00000022","name":"GoldenOwl708","score":493},{"rank":8,"playerId":"player-00000009","name":"HiddenBandit990","score":374},{"rank":9,"playerId":"player-00000024","name":"SilentComet396","score":363},{"rank":10,"playerId":"player-00000025","name":"NobleMoose828","score":353},{"rank":11,"playerId":"player-00000014","name":"NobleSquid229","score":327},{"rank":12,"playerId":"player-00000007","name":"HyperSamurai250","score":318},{"rank":13,"playerId":"player-00000012","name":"ThunderSquid372","score":284},{"rank":14,"playerId":"player-00000003","name":"TurboLynx462","score":268},{"rank":15,"playerId":"player-00000015","name":"VelvetPaladin75","score":252},{"rank":16,"playerId":"player-00000029","name":"ShadowDragon206","score":238},{"rank":17,"playerId":"player-00000026","name":"HappyOwl321","score":234},{"rank":18,"playerId":"player-00000001","name":"IronMoose96","score":207},{"rank":19,"playerId":"player-00000020","name":"GoldenCoyote388","score":191},{"rank":20,"playerId":"player-00000002","name":"HiddenHawk457","score":153},{"rank":21,"playerId":"player-00000011","name":"FrostOtter859","score":142},{"rank":22,"playerId":"player-00000013","name":"CleverCoyote179","score":136},{"rank":23,"playerId":"player-00000010","name":"FuzzyViper176","score":131},{"rank":24,"playerId":"player-00000028","name":"FrostPirate935","score":126},{"rank":25,"playerId":"player-00000016","name":"RogueGoblin710","score":87},{"rank":26,"playerId":"player-00000006","name":"FrozenPanda231","score":85},{"rank":27,"playerId":"player-00000019","name":"ElectricBandit31","score":43},{"rank":28,"playerId":"player-00000021","name":"HyperMantis129","score":35},{"rank":29,"playerId":"player-00000008","name":"MysticBadger693","score":35},{"rank":30,"playerId":"player-00000017","name":"LazyCoyote95","score":9}]}', '2026-11-27 21:13:33.544524+00', 1, '2026-11-27 21:13:58.042295+00', NULL, 'connection refused: Post "http://127.0.0.1:1/…": dial tcp 127.0.0.1:1: connect: connection refused', NULL, NULL);
INSERT INTO public.outbox VALUES ('evt_bf11dddd8952fd71552f6d934f2122be', 'month.closed', NULL, '{"id":"evt_bf11dddd8952fd71552f6d934f2122be","type":"month.closed","month":"2026-11","board":"monthly.sprint","period":"2026-11","closedAt":"2026-11-27T21:13:34.778540334Z","participants":15,"digest":"764a8dc1b37a055d6b21bd180a44e693187f7da4bd0a8611b07c04f79427e8a6","top":[{"rank":1,"playerId":"player-00000012","name":"ThunderSquid372","score":43},{"rank":2,"playerId":"player-00000008","name":"MysticBadger693","score":49},{"rank":3,"playerId":"player-00000002","name":"HiddenHawk457","score":62},{"rank":4,"playerId":"player-00000015","name":"VelvetPaladin75","score":86},{"rank":5,"playerId":"player-00000010","name":"FuzzyViper176","score":88},{"rank":6,"playerId":"player-00000006","name":"FrozenPanda231","score":100},{"rank":7,"playerId":"player-00000004","name":"FrozenGecko27","score":119},{"rank":8,"playerId":"player-00000013","name":"CleverCoyote179","score":122},{"rank":9,"playerId":"player-00000011","name":"FrostOtter859","score":135},{"rank":10,"playerId":"player-00000005","name":"StormOwl536","score":169},{"rank":11,"playerId":"player-00000014","name":"NobleSquid229","score":274},{"rank":12,"playerId":"player-00000003","name":"TurboLynx462","score":278},{"rank":13,"playerId":"player-00000009","name":"HiddenBandit990","score":280},{"rank":14,"playerId":"player-00000007","name":"HyperSamurai250","score":334},{"rank":15,"playerId":"player-00000001","name":"IronMoose96","score":504}]}', '2026-11-27 21:13:34.792816+00', 1, '2026-11-27 21:13:58.063382+00', NULL, 'connection refused: Post "http://127.0.0.1:1/…": dial tcp 127.0.0.1:1: connect: connection refused', 'monthly.sprint', 5);


--
-- Data for Name: periods; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('season.cup', 's2', 2, 'OPEN', '2026-11-25 00:00:00+00', '2027-05-27 00:00:00+00', '2026-11-27 21:13:27.9832+00', NULL, NULL, NULL, 0, NULL);
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('daily.laps', '2026-11-27', 6, 'OPEN', '2026-11-26 23:00:00+00', '2026-11-27 23:00:00+00', '2026-11-27 21:13:31.247981+00', NULL, NULL, NULL, 0, NULL);
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('weekly.pvp', '2026-W48', 7, 'OPEN', '2026-11-23 00:00:00+00', '2026-11-30 00:00:00+00', '2026-11-27 21:13:31.270153+00', NULL, NULL, NULL, 0, NULL);
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('monthly.clan', '2026-11', 8, 'OPEN', '2026-11-01 00:00:00+00', '2026-12-01 00:00:00+00', '2026-11-27 21:13:31.308402+00', NULL, NULL, NULL, 0, NULL);
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('forever', 'all', 9, 'OPEN', '2026-05-27 21:13:21+00', NULL, '2026-11-27 21:13:31.354556+00', NULL, NULL, NULL, 0, NULL);
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('monthly.sprint', '2026-11', 5, 'CLOSED', '2026-11-01 00:00:00+00', '2026-12-01 00:00:00+00', '2026-11-27 21:13:30.197384+00', '2026-11-27 21:13:34.77854+00', 15, '764a8dc1b37a055d6b21bd180a44e693187f7da4bd0a8611b07c04f79427e8a6', 1, '2026-11-01');
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('daily.laps', '2026-11-26', 3, 'CLOSED', '2026-11-25 23:00:00+00', '2026-11-26 23:00:00+00', '2026-11-27 21:13:28.486741+00', '2026-11-27 21:13:34.524636+00', 27, '9b33588c76b73f2df31637b6e571c79e667fa76f8baf0eade9ee8ebffb1e31f5', 3, '2026-11-01');
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('weekly.pvp', '2026-W47', 4, 'CLOSED', '2026-11-16 00:00:00+00', '2026-11-23 00:00:00+00', '2026-11-27 21:13:29.256982+00', '2026-11-27 21:13:34.66099+00', 25, '652721c8b01ad21385af4145e019c0145f76909cac5889a2c20ad97394d74c45', 2, '2026-11-01');
INSERT INTO public.periods OVERRIDING SYSTEM VALUE VALUES ('season.cup', 's1', 1, 'CLOSED', '2026-11-07 00:00:00+00', '2026-11-25 00:00:00+00', '2026-11-27 21:13:27.879916+00', '2026-11-27 21:13:34.846369+00', 17, '2bffaaab4143e71725e1136e6a613db847c3658984eb2696ada59b5830a0fe51', 2, '2026-11-01');


--
-- Data for Name: players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.players VALUES ('player-00000001', 'IronMoose96', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000002', 'HiddenHawk457', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000003', 'TurboLynx462', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000004', 'FrozenGecko27', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000005', 'StormOwl536', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000006', 'FrozenPanda231', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000007', 'HyperSamurai250', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000008', 'MysticBadger693', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000009', 'HiddenBandit990', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000010', 'FuzzyViper176', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000011', 'FrostOtter859', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000012', 'ThunderSquid372', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000013', 'CleverCoyote179', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000014', 'NobleSquid229', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000015', 'VelvetPaladin75', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000016', 'RogueGoblin710', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000017', 'LazyCoyote95', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000018', 'EpicHornet746', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000019', 'ElectricBandit31', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000020', 'GoldenCoyote388', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000021', 'HyperMantis129', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000022', 'GoldenOwl708', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000023', 'HyperStallion36', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000024', 'SilentComet396', '2026-11-27 21:13:22.845855+00');
INSERT INTO public.players VALUES ('player-00000025', 'NobleMoose828', '2026-11-27 21:13:24.815699+00');
INSERT INTO public.players VALUES ('player-00000026', 'HappyOwl321', '2026-11-27 21:13:24.815699+00');
INSERT INTO public.players VALUES ('player-00000027', 'AncientPaladin848', '2026-11-27 21:13:24.815699+00');
INSERT INTO public.players VALUES ('player-00000028', 'FrostPirate935', '2026-11-27 21:13:24.815699+00');
INSERT INTO public.players VALUES ('player-00000029', 'ShadowDragon206', '2026-11-27 21:13:24.815699+00');
INSERT INTO public.players VALUES ('player-00000030', 'RapidHornet691', '2026-11-27 21:13:24.815699+00');
INSERT INTO public.players VALUES ('y01', 'Alice', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y02', 'Bob', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y03', 'Carol', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y04', 'Dave', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y05', 'Émile', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y06', 'Fatima', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y07', 'Grzegorz Ż', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('y08', 'Hiroshi 広', '2026-11-27 21:13:31.147458+00');
INSERT INTO public.players VALUES ('alice', 'Alice A.', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('bob', 'Bob', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('carol', 'Carol', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('dave', 'Dave', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('erin', 'Erin (renamed)', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('frank', 'Fatima', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('grace', 'Grzegorz Ż', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('heidi', 'Hiroshi 広', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('ivan', 'Ines', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('judy', 'Jonas', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('mallory', 'Kateryna Ш', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('niaj', 'Li Wei 李伟', '2026-11-27 21:13:31.218302+00');
INSERT INTO public.players VALUES ('t01', 'Alice', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t02', 'Bob', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t03', 'Carol', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t04', 'Dave', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t05', 'Émile', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t06', 'Fatima', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t07', 'Grzegorz Ż', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t08', 'Hiroshi 広', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t09', 'Ines', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t10', 'Jonas', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t11', 'Kateryna Ш', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t12', 'Li Wei 李伟', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t13', 'Mateo', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('t14', 'Nour نور', '2026-11-27 21:13:31.252377+00');
INSERT INTO public.players VALUES ('a01', 'Dave', '2026-11-27 21:13:31.279087+00');
INSERT INTO public.players VALUES ('a02', 'Émile', '2026-11-27 21:13:31.279087+00');
INSERT INTO public.players VALUES ('a03', 'Fatima', '2026-11-27 21:13:31.279087+00');
INSERT INTO public.players VALUES ('a04', 'Grzegorz Ż', '2026-11-27 21:13:31.279087+00');
INSERT INTO public.players VALUES ('a05', 'Hiroshi 広', '2026-11-27 21:13:31.279087+00');
INSERT INTO public.players VALUES ('a06', 'Ines', '2026-11-27 21:13:31.279087+00');
INSERT INTO public.players VALUES ('b01', 'Dave', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b02', 'Émile', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b03', 'Fatima', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b04', 'Grzegorz Ż', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b05', 'Hiroshi 広', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b06', 'Ines', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b07', 'Jonas', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b08', 'Kateryna Ш', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b09', 'Li Wei 李伟', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b10', 'Mateo', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b11', 'Nour نور', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b12', 'Olivia', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b13', 'Pál', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b14', 'Alice', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b15', 'Bob', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('b16', 'Carol', '2026-11-27 21:13:31.298904+00');
INSERT INTO public.players VALUES ('c01', 'Dave', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c02', 'Émile', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c03', 'Fatima', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c04', 'Grzegorz Ż', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c05', 'Hiroshi 広', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c06', 'Ines', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c07', 'Jonas', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c08', 'Kateryna Ш', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c09', 'Li Wei 李伟', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c10', 'Mateo', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c11', 'Nour نور', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('c12', 'Olivia', '2026-11-27 21:13:31.323721+00');
INSERT INTO public.players VALUES ('w01', 'Hiroshi 広', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w02', 'Ines', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w03', 'Jonas', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w04', 'Kateryna Ш', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w05', 'Li Wei 李伟', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w06', 'Mateo', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w07', 'Nour نور', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w08', 'Olivia', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w09', 'Pál', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w10', 'Alice', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w11', 'Bob', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('w12', 'Carol', '2026-11-27 21:13:31.370532+00');
INSERT INTO public.players VALUES ('s01', 'Alice', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s02', 'Bob', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s03', 'Carol', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s04', 'Dave', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s05', 'Émile', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s06', 'Fatima', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s07', 'Grzegorz Ż', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s08', 'Hiroshi 広', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s09', 'Ines', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s10', 'Jonas', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s11', 'Kateryna Ш', '2026-11-27 21:13:31.377473+00');
INSERT INTO public.players VALUES ('s12', 'Li Wei 李伟', '2026-11-27 21:13:31.377473+00');


--
-- Data for Name: removed_players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.removed_players VALUES ('2026-09-01', 'player-00000007');


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (16, false);


--
-- Data for Name: score_block_counts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_block_counts VALUES ('2026-08-01', 0, 1);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 1, 5);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 2, 6);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 3, 4);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 4, 1);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 8, 1);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 9, 3);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 10, 1);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 15, 1);
INSERT INTO public.score_block_counts VALUES ('2026-08-01', 27, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 0, 6);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 1, 6);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 4, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 5, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 6, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 7, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 9, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 15, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 16, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 0, 2);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 4, 4);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 9, 3);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 10, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 12, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 2, 5);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 99, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 3, 4);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 6, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 7, 0);


--
-- Data for Name: score_counts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_counts VALUES ('2026-08-01', 79, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 100, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 115, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 116, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 135, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 198, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 209, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 225, 2);
INSERT INTO public.score_counts VALUES ('2026-08-01', 228, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 235, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 286, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 367, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 377, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 382, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 393, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 412, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 829, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 906, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 911, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 950, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 1011, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 1570, 1);
INSERT INTO public.score_counts VALUES ('2026-08-01', 2783, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 9, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 35, 2);
INSERT INTO public.score_counts VALUES ('2026-09-01', 43, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 85, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 87, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 126, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 131, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 136, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 142, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 153, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 191, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 207, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 234, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 238, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 252, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 284, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 327, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 353, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 363, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 374, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 493, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 551, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 625, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 737, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 961, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 1547, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 1635, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 5, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 7, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 450, 4);
INSERT INTO public.score_counts VALUES ('2026-10-01', 900, 3);
INSERT INTO public.score_counts VALUES ('2026-10-01', 1000, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 1200, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 268, 0);
INSERT INTO public.score_counts VALUES ('2026-09-01', 9999, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 318, 0);
INSERT INTO public.score_counts VALUES ('2026-10-01', 650, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 700, 0);


--
-- Data for Name: score_events_2026_08; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: score_events_2026_09; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: score_events_2026_10; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_events_2026_10 VALUES ('main/alice-1', '2026-10-01', 'alice', 'SET', 900, '2026-10-02 12:00:00+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 900);
INSERT INTO public.score_events_2026_10 VALUES ('main/bob-1', '2026-10-01', 'bob', 'SET', 300, '2026-10-02 12:00:00+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 300);
INSERT INTO public.score_events_2026_10 VALUES ('main/carol-1', '2026-10-01', 'carol', 'SET', 900, '2026-10-02 12:00:01+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 900);
INSERT INTO public.score_events_2026_10 VALUES ('main/dave-1', '2026-10-01', 'dave', 'SET', 10000, '2026-10-02 12:00:01+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 10000);
INSERT INTO public.score_events_2026_10 VALUES ('main/erin-1', '2026-10-01', 'erin', 'SET', 0, '2026-10-02 12:00:02+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 0);
INSERT INTO public.score_events_2026_10 VALUES ('main/frank-1', '2026-10-01', 'frank', 'SET', 450, '2026-10-02 12:00:02+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 450);
INSERT INTO public.score_events_2026_10 VALUES ('main/grace-1', '2026-10-01', 'grace', 'SET', 450, '2026-10-02 12:00:03+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 450);
INSERT INTO public.score_events_2026_10 VALUES ('main/heidi-1', '2026-10-01', 'heidi', 'SET', 7, '2026-10-02 12:00:03+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 7);
INSERT INTO public.score_events_2026_10 VALUES ('main/ivan-1', '2026-10-01', 'ivan', 'SET', 900, '2026-10-02 12:00:04+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 900);
INSERT INTO public.score_events_2026_10 VALUES ('main/judy-1', '2026-10-01', 'judy', 'SET', 1200, '2026-10-02 12:00:04+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 1200);
INSERT INTO public.score_events_2026_10 VALUES ('main/mallory-1', '2026-10-01', 'mallory', 'SET', 5, '2026-10-02 12:00:05+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 5);
INSERT INTO public.score_events_2026_10 VALUES ('main/niaj-1', '2026-10-01', 'niaj', 'SET', 450, '2026-10-02 12:00:05+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', NULL, 450);
INSERT INTO public.score_events_2026_10 VALUES ('main/bob-2', '2026-10-01', 'bob', 'ADD', 400, '2026-10-02 12:00:20+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', 300, 700);
INSERT INTO public.score_events_2026_10 VALUES ('main/carol-2', '2026-10-01', 'carol', 'BEST', 800, '2026-10-02 12:00:21+00', '2026-11-27 21:13:31.171619+00', 'UNCHANGED', 900, 900);
INSERT INTO public.score_events_2026_10 VALUES ('main/dave-2', '2026-10-01', 'dave', 'ADD', -9000, '2026-10-02 12:00:22+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', 10000, 1000);
INSERT INTO public.score_events_2026_10 VALUES ('main/erin-2', '2026-10-01', 'erin', 'BEST', 450, '2026-10-02 12:00:23+00', '2026-11-27 21:13:31.171619+00', 'APPLIED', 0, 450);
INSERT INTO public.score_events_2026_10 VALUES ('main/alice-2', '2026-10-01', 'alice', 'SET', 900, '2026-10-02 12:00:24+00', '2026-11-27 21:13:31.171619+00', 'UNCHANGED', 900, 900);


--
-- Data for Name: score_hour_counts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 79, 496154, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 100, 496370, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 115, 496489, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 116, 496510, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 135, 495991, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 198, 496159, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 209, 496277, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 225, 496627, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 225, 496726, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 228, 496140, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 235, 496385, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 286, 496224, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 367, 496172, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 377, 496530, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 382, 496391, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 393, 496101, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 412, 496021, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 829, 496669, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 906, 496590, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 911, 496489, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 950, 496428, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 1011, 496509, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 1570, 496442, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-08-01', 2783, 496711, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 9, 497156, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 35, 496888, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 35, 497131, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 43, 496857, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 85, 496898, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 87, 496978, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 126, 497438, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 131, 497101, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 136, 497306, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 142, 497445, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 153, 497240, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 191, 496887, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 207, 497297, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 234, 497180, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 238, 497440, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 252, 496760, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 284, 497319, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 327, 497240, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 353, 497302, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 363, 497290, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 374, 497386, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 493, 496819, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 551, 497060, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 625, 497024, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 737, 497353, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 961, 496955, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 1547, 497181, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 1635, 497024, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 5, 497484, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 7, 497484, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 450, 497484, 4);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 900, 497484, 3);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 1000, 497484, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 1200, 497484, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 268, 496728, 0);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 9999, 498837, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 318, 496837, 0);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 650, 498837, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 700, 497484, 0);


--
-- Data for Name: scores_2026_08; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000001', 286, '2026-08-11 00:43:00+00', 1);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000002', 829, '2026-08-29 13:34:00+00', 2);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000003', 377, '2026-08-23 18:13:00+00', 3);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000004', 209, '2026-08-13 05:56:00+00', 4);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000005', 906, '2026-08-26 06:16:00+00', 5);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000006', 950, '2026-08-19 12:45:00+00', 6);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000007', 225, '2026-08-31 22:14:00+00', 7);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000008', 116, '2026-08-22 22:06:00+00', 8);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000009', 228, '2026-08-07 12:55:00+00', 9);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000010', 79, '2026-08-08 02:26:00+00', 10);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000011', 100, '2026-08-17 02:29:00+00', 11);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000012', 115, '2026-08-22 01:41:00+00', 12);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000013', 393, '2026-08-05 21:00:00+00', 13);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000014', 2783, '2026-08-31 07:13:00+00', 14);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000015', 911, '2026-08-22 01:43:00+00', 15);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000016', 225, '2026-08-27 19:55:00+00', 16);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000017', 235, '2026-08-17 17:00:00+00', 17);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000018', 198, '2026-08-08 07:28:00+00', 18);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000019', 367, '2026-08-08 20:23:00+00', 19);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000020', 1570, '2026-08-20 02:51:00+00', 20);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000021', 412, '2026-08-02 13:58:00+00', 21);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000022', 135, '2026-08-01 07:10:00+00', 22);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000023', 1011, '2026-08-22 21:12:00+00', 23);
INSERT INTO public.scores_2026_08 VALUES ('2026-08-01', 'player-00000024', 382, '2026-08-17 23:28:00+00', 24);


--
-- Data for Name: scores_2026_09; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000001', 207, '2026-09-24 17:16:00+00', 25);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000002', 153, '2026-09-22 08:38:00+00', 26);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000004', 961, '2026-09-10 11:20:00+00', 28);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000005', 1635, '2026-09-13 08:35:00+00', 29);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000006', 85, '2026-09-08 02:40:00+00', 30);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000008', 35, '2026-09-17 19:32:00+00', 32);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000009', 374, '2026-09-28 10:06:00+00', 33);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000010', 131, '2026-09-16 13:12:00+00', 34);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000011', 142, '2026-09-30 21:17:00+00', 35);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000012', 284, '2026-09-25 15:12:00+00', 36);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000013', 136, '2026-09-25 02:06:00+00', 37);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000014', 327, '2026-09-22 08:17:00+00', 38);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000015', 252, '2026-09-02 08:58:00+00', 39);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000016', 87, '2026-09-11 10:49:00+00', 40);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000017', 9, '2026-09-18 20:42:00+00', 41);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000018', 625, '2026-09-13 08:37:00+00', 42);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000019', 43, '2026-09-06 09:24:00+00', 43);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000020', 191, '2026-09-07 15:31:00+00', 44);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000021', 35, '2026-09-07 16:15:00+00', 45);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000022', 493, '2026-09-04 19:54:00+00', 46);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000023', 737, '2026-09-27 01:40:00+00', 47);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000024', 363, '2026-09-24 10:00:00+00', 48);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000025', 353, '2026-09-24 22:16:00+00', 49);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000026', 234, '2026-09-19 20:02:00+00', 50);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000027', 1547, '2026-09-19 21:51:00+00', 51);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000028', 126, '2026-09-30 14:10:00+00', 52);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000029', 238, '2026-09-30 16:47:00+00', 53);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000030', 551, '2026-09-14 20:43:00+00', 54);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000003', 9999, '2026-11-27 21:13:35.155097+00', 311);


--
-- Data for Name: scores_2026_10; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'alice', 900, '2026-10-02 12:00:00+00', 160);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'carol', 900, '2026-10-02 12:00:01+00', 161);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'dave', 1000, '2026-10-02 12:00:22+00', 170);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'erin', 450, '2026-10-02 12:00:23+00', 171);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'frank', 450, '2026-10-02 12:00:02+00', 162);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'grace', 450, '2026-10-02 12:00:03+00', 163);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'heidi', 7, '2026-10-02 12:00:03+00', 164);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'ivan', 900, '2026-10-02 12:00:04+00', 165);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'judy', 1200, '2026-10-02 12:00:04+00', 166);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'mallory', 5, '2026-10-02 12:00:05+00', 167);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'niaj', 450, '2026-10-02 12:00:05+00', 168);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'bob', 650, '2026-11-27 21:13:36.285784+00', 312);


--
-- Name: corrections_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.corrections_id_seq', 8, true);


--
-- Name: periods_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.periods_id_seq', 9, true);


--
-- Name: score_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.score_seq', 314, true);


--
-- Name: board_final_ranks board_final_ranks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_final_ranks
    ADD CONSTRAINT board_final_ranks_pkey PRIMARY KEY (bucket, period_id, rank);


--
-- Name: board_final_ranks_2026_11 board_final_ranks_2026_11_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_final_ranks_2026_11
    ADD CONSTRAINT board_final_ranks_2026_11_pkey PRIMARY KEY (bucket, period_id, rank);


--
-- Name: board_removed_players board_removed_players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_removed_players
    ADD CONSTRAINT board_removed_players_pkey PRIMARY KEY (period_id, player_id);


--
-- Name: board_score_events board_score_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_score_events
    ADD CONSTRAINT board_score_events_pkey PRIMARY KEY (board_id, event_id);


--
-- Name: board_scores board_scores_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_scores
    ADD CONSTRAINT board_scores_pkey PRIMARY KEY (period_id, player_id);


--
-- Name: boards boards_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.boards
    ADD CONSTRAINT boards_pkey PRIMARY KEY (id);


--
-- Name: claims claims_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claims
    ADD CONSTRAINT claims_pkey PRIMARY KEY (board_id, period_key, player_id);


--
-- Name: corrections corrections_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections
    ADD CONSTRAINT corrections_pkey PRIMARY KEY (id);


--
-- Name: final_ranks final_ranks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks
    ADD CONSTRAINT final_ranks_pkey PRIMARY KEY (month, rank);


--
-- Name: final_ranks_2026_08_v1 final_ranks_2026_08_v1_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks_2026_08_v1
    ADD CONSTRAINT final_ranks_2026_08_v1_pkey PRIMARY KEY (month, rank);


--
-- Name: final_ranks_2026_09_v3 final_ranks_2026_09_v3_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks_2026_09_v3
    ADD CONSTRAINT final_ranks_2026_09_v3_pkey PRIMARY KEY (month, rank);


--
-- Name: months months_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.months
    ADD CONSTRAINT months_pkey PRIMARY KEY (month);


--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);


--
-- Name: periods periods_board_id_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.periods
    ADD CONSTRAINT periods_board_id_id_key UNIQUE (board_id, id);


--
-- Name: periods periods_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.periods
    ADD CONSTRAINT periods_pkey PRIMARY KEY (board_id, key);


--
-- Name: players players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_pkey PRIMARY KEY (id);


--
-- Name: removed_players removed_players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.removed_players
    ADD CONSTRAINT removed_players_pkey PRIMARY KEY (month, player_id);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: score_block_counts score_block_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_block_counts
    ADD CONSTRAINT score_block_counts_pkey PRIMARY KEY (month, block);


--
-- Name: score_counts score_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_counts
    ADD CONSTRAINT score_counts_pkey PRIMARY KEY (month, score);


--
-- Name: score_events score_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events
    ADD CONSTRAINT score_events_pkey PRIMARY KEY (event_id, month);


--
-- Name: score_events_2026_08 score_events_2026_08_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events_2026_08
    ADD CONSTRAINT score_events_2026_08_pkey PRIMARY KEY (event_id, month);


--
-- Name: score_events_2026_09 score_events_2026_09_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events_2026_09
    ADD CONSTRAINT score_events_2026_09_pkey PRIMARY KEY (event_id, month);


--
-- Name: score_events_2026_10 score_events_2026_10_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events_2026_10
    ADD CONSTRAINT score_events_2026_10_pkey PRIMARY KEY (event_id, month);


--
-- Name: score_hour_counts score_hour_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_hour_counts
    ADD CONSTRAINT score_hour_counts_pkey PRIMARY KEY (month, score, hour);


--
-- Name: scores scores_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores
    ADD CONSTRAINT scores_pkey PRIMARY KEY (month, player_id);


--
-- Name: scores_2026_08 scores_2026_08_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores_2026_08
    ADD CONSTRAINT scores_2026_08_pkey PRIMARY KEY (month, player_id);


--
-- Name: scores_2026_09 scores_2026_09_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores_2026_09
    ADD CONSTRAINT scores_2026_09_pkey PRIMARY KEY (month, player_id);


--
-- Name: scores_2026_10 scores_2026_10_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores_2026_10
    ADD CONSTRAINT scores_2026_10_pkey PRIMARY KEY (month, player_id);


--
-- Name: board_final_ranks_player_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_final_ranks_player_idx ON ONLY public.board_final_ranks USING btree (player_id, period_id);


--
-- Name: board_final_ranks_2026_11_player_id_period_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_final_ranks_2026_11_player_id_period_id_idx ON public.board_final_ranks_2026_11 USING btree (player_id, period_id);


--
-- Name: board_score_events_period_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_score_events_period_idx ON public.board_score_events USING btree (period_id, player_id);


--
-- Name: board_scores_rank_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX board_scores_rank_idx ON public.board_scores USING btree (period_id, sort_score, sort_subscore, reached_at, seq) INCLUDE (player_id);


--
-- Name: claims_month_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX claims_month_idx ON public.claims USING btree (month) WHERE (month IS NOT NULL);


--
-- Name: claims_period_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX claims_period_idx ON public.claims USING btree (period_id) WHERE (period_id IS NOT NULL);


--
-- Name: corrections_month_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX corrections_month_idx ON public.corrections USING btree (month, id);


--
-- Name: corrections_period_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX corrections_period_idx ON public.corrections USING btree (period_id, id) WHERE (period_id IS NOT NULL);


--
-- Name: outbox_month_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX outbox_month_idx ON public.outbox USING btree (month, created_at);


--
-- Name: outbox_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX outbox_pending_idx ON public.outbox USING btree (next_attempt_at) WHERE (delivered_at IS NULL);


--
-- Name: outbox_period_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX outbox_period_idx ON public.outbox USING btree (period_id, created_at) WHERE (period_id IS NOT NULL);


--
-- Name: periods_board_start_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX periods_board_start_idx ON public.periods USING btree (board_id, starts_at DESC);


--
-- Name: periods_closed_ended_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX periods_closed_ended_idx ON public.periods USING btree (COALESCE(ends_at, closed_at) DESC, board_id, key) WHERE (status = 'CLOSED'::text);


--
-- Name: periods_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX periods_due_idx ON public.periods USING btree (ends_at) WHERE (status <> 'CLOSED'::text);


--
-- Name: periods_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX periods_id_idx ON public.periods USING btree (id);


--
-- Name: scores_rank_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_rank_idx ON ONLY public.scores USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: scores_2026_08_score_reached_at_seq_player_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_2026_08_score_reached_at_seq_player_id_idx ON public.scores_2026_08 USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: scores_2026_09_score_reached_at_seq_player_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_2026_09_score_reached_at_seq_player_id_idx ON public.scores_2026_09 USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: scores_2026_10_score_reached_at_seq_player_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_2026_10_score_reached_at_seq_player_id_idx ON public.scores_2026_10 USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: board_final_ranks_2026_11_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.board_final_ranks_pkey ATTACH PARTITION public.board_final_ranks_2026_11_pkey;


--
-- Name: board_final_ranks_2026_11_player_id_period_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.board_final_ranks_player_idx ATTACH PARTITION public.board_final_ranks_2026_11_player_id_period_id_idx;


--
-- Name: final_ranks_2026_08_v1_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.final_ranks_pkey ATTACH PARTITION public.final_ranks_2026_08_v1_pkey;


--
-- Name: final_ranks_2026_09_v3_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.final_ranks_pkey ATTACH PARTITION public.final_ranks_2026_09_v3_pkey;


--
-- Name: score_events_2026_08_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.score_events_pkey ATTACH PARTITION public.score_events_2026_08_pkey;


--
-- Name: score_events_2026_09_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.score_events_pkey ATTACH PARTITION public.score_events_2026_09_pkey;


--
-- Name: score_events_2026_10_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.score_events_pkey ATTACH PARTITION public.score_events_2026_10_pkey;


--
-- Name: scores_2026_08_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_pkey ATTACH PARTITION public.scores_2026_08_pkey;


--
-- Name: scores_2026_08_score_reached_at_seq_player_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_rank_idx ATTACH PARTITION public.scores_2026_08_score_reached_at_seq_player_id_idx;


--
-- Name: scores_2026_09_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_pkey ATTACH PARTITION public.scores_2026_09_pkey;


--
-- Name: scores_2026_09_score_reached_at_seq_player_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_rank_idx ATTACH PARTITION public.scores_2026_09_score_reached_at_seq_player_id_idx;


--
-- Name: scores_2026_10_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_pkey ATTACH PARTITION public.scores_2026_10_pkey;


--
-- Name: scores_2026_10_score_reached_at_seq_player_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_rank_idx ATTACH PARTITION public.scores_2026_10_score_reached_at_seq_player_id_idx;


--
-- Name: periods periods_delete_claims; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER periods_delete_claims AFTER DELETE ON public.periods FOR EACH ROW EXECUTE FUNCTION public.delete_period_claims();


--
-- Name: board_scores board_scores_player_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.board_scores
    ADD CONSTRAINT board_scores_player_id_fkey FOREIGN KEY (player_id) REFERENCES public.players(id);


--
-- Name: claims claims_month_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.claims
    ADD CONSTRAINT claims_month_fkey FOREIGN KEY (month) REFERENCES public.months(month) ON DELETE CASCADE;


--
-- Name: corrections corrections_month_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections
    ADD CONSTRAINT corrections_month_fkey FOREIGN KEY (month) REFERENCES public.months(month) ON DELETE CASCADE;


--
-- Name: corrections corrections_period_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections
    ADD CONSTRAINT corrections_period_fkey FOREIGN KEY (board_id, period_id) REFERENCES public.periods(board_id, id) ON DELETE CASCADE;


--
-- Name: outbox outbox_month_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.outbox
    ADD CONSTRAINT outbox_month_fkey FOREIGN KEY (month) REFERENCES public.months(month) ON DELETE CASCADE;


--
-- Name: outbox outbox_period_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.outbox
    ADD CONSTRAINT outbox_period_fkey FOREIGN KEY (board_id, period_id) REFERENCES public.periods(board_id, id) ON DELETE CASCADE;


--
-- Name: periods periods_board_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.periods
    ADD CONSTRAINT periods_board_id_fkey FOREIGN KEY (board_id) REFERENCES public.boards(id) ON DELETE CASCADE;


--
-- Name: removed_players removed_players_month_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.removed_players
    ADD CONSTRAINT removed_players_month_fkey FOREIGN KEY (month) REFERENCES public.months(month) ON DELETE CASCADE;


--
-- Name: scores scores_player_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE public.scores
    ADD CONSTRAINT scores_player_id_fkey FOREIGN KEY (player_id) REFERENCES public.players(id);


--
-- PostgreSQL database dump complete
--

\unrestrict WQ3kkyWs2t2LHhzuo95ZNLfo0WkFaTXbZ2rbmFL2htTqMjxn1J9q8oq8z4PdDFp

