--
-- PostgreSQL database dump
--

\restrict bJG3YVYjgInySmQbb7xMWL1cBt0sm5ZsAxkHRbnLlnpDh0KxggVmKK7B8GiKEnF

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

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: corrections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.corrections (
    id bigint NOT NULL,
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score_before integer,
    score_after integer,
    reason text NOT NULL,
    at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT corrections_reason_check CHECK (((char_length(reason) >= 1) AND (char_length(reason) <= 500))),
    CONSTRAINT corrections_score_after_check CHECK (((score_after >= 0) AND (score_after <= 10000)))
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
-- Name: final_ranks_2026_09_v1; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.final_ranks_2026_09_v1 (
    month date NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    CONSTRAINT final_ranks_2026_09_v1_month_check CHECK ((month = '2026-09-01'::date))
);


--
-- Name: final_ranks_2026_10_v3; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.final_ranks_2026_10_v3 (
    month date NOT NULL,
    rank integer NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    CONSTRAINT final_ranks_2026_10_v3_month_check CHECK ((month = '2026-10-01'::date))
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
    month date NOT NULL,
    body text NOT NULL,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    delivered_at timestamp with time zone,
    last_error text,
    CONSTRAINT outbox_type_check CHECK ((type = ANY (ARRAY['month.closed'::text, 'month.corrected'::text])))
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
-- Name: score_events_2026_11; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.score_events_2026_11 (
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
-- Name: scores_2026_11; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scores_2026_11 (
    month date NOT NULL,
    player_id text NOT NULL COLLATE pg_catalog."C",
    score integer NOT NULL,
    reached_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT scores_score_check CHECK (((score >= 0) AND (score <= 10000)))
);


--
-- Name: final_ranks_2026_09_v1; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks ATTACH PARTITION public.final_ranks_2026_09_v1 FOR VALUES IN ('2026-09-01');


--
-- Name: final_ranks_2026_10_v3; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks ATTACH PARTITION public.final_ranks_2026_10_v3 FOR VALUES IN ('2026-10-01');


--
-- Name: score_events_2026_09; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events ATTACH PARTITION public.score_events_2026_09 FOR VALUES IN ('2026-09-01');


--
-- Name: score_events_2026_10; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events ATTACH PARTITION public.score_events_2026_10 FOR VALUES IN ('2026-10-01');


--
-- Name: score_events_2026_11; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events ATTACH PARTITION public.score_events_2026_11 FOR VALUES IN ('2026-11-01');


--
-- Name: scores_2026_09; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ATTACH PARTITION public.scores_2026_09 FOR VALUES IN ('2026-09-01');


--
-- Name: scores_2026_10; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ATTACH PARTITION public.scores_2026_10 FOR VALUES IN ('2026-10-01');


--
-- Name: scores_2026_11; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ATTACH PARTITION public.scores_2026_11 FOR VALUES IN ('2026-11-01');


--
-- Name: corrections id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections ALTER COLUMN id SET DEFAULT nextval('public.corrections_id_seq'::regclass);


--
-- Data for Name: corrections; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.corrections VALUES (1, '2026-10-01', 'ivan', 10000, NULL, 'aimbot: 10000 in one match', '2026-11-25 15:41:00.314739+00');
INSERT INTO public.corrections VALUES (2, '2026-10-01', 'dave', 650, 777, 'refund of a match lost to a server crash', '2026-11-25 15:41:00.388181+00');


--
-- Data for Name: final_ranks_2026_09_v1; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 1, 'player-00000026', 1793, '2026-09-29 02:52:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 2, 'player-00000016', 1040, '2026-09-22 20:52:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 3, 'player-00000018', 955, '2026-09-19 02:13:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 4, 'player-00000020', 928, '2026-09-18 14:15:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 5, 'player-00000027', 809, '2026-09-03 21:13:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 6, 'player-00000022', 799, '2026-09-01 23:40:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 7, 'player-00000004', 699, '2026-09-24 00:03:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 8, 'player-00000014', 507, '2026-09-15 08:20:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 9, 'player-00000002', 443, '2026-09-08 05:12:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 10, 'player-00000008', 425, '2026-09-21 05:10:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 11, 'player-00000007', 410, '2026-09-25 18:17:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 12, 'player-00000009', 366, '2026-09-04 07:39:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 13, 'player-00000029', 345, '2026-09-14 05:21:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 14, 'player-00000001', 288, '2026-09-04 16:42:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 15, 'player-00000030', 286, '2026-09-12 02:29:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 16, 'player-00000025', 285, '2026-09-30 02:48:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 17, 'player-00000019', 280, '2026-09-17 11:13:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 18, 'player-00000028', 250, '2026-09-27 08:56:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 19, 'player-00000013', 239, '2026-09-15 20:02:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 20, 'player-00000006', 227, '2026-09-03 23:57:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 21, 'player-00000012', 216, '2026-09-13 01:38:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 22, 'player-00000005', 171, '2026-09-11 11:01:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 23, 'player-00000003', 154, '2026-09-03 15:05:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 24, 'player-00000021', 153, '2026-09-13 04:02:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 25, 'player-00000017', 100, '2026-09-13 12:46:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 26, 'player-00000011', 82, '2026-09-23 06:39:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 27, 'player-00000023', 67, '2026-09-08 12:13:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 28, 'player-00000010', 51, '2026-09-20 08:13:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 29, 'player-00000024', 48, '2026-09-28 15:32:00+00');
INSERT INTO public.final_ranks_2026_09_v1 VALUES ('2026-09-01', 30, 'player-00000015', 31, '2026-09-29 00:13:00+00');


--
-- Data for Name: final_ranks_2026_10_v3; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 1, 'carol', 900, '2026-10-03 10:00:00.123456+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 2, 'peggy', 900, '2026-10-03 10:00:00.123456+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 3, 'alice', 900, '2026-10-04 11:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 4, 'olivia', 900, '2026-10-15 21:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 5, 'mallory', 800, '2026-10-13 19:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 6, 'dave', 777, '2026-11-25 15:41:00.388181+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 7, 'frank', 700, '2026-10-02 09:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 8, 'erin', 700, '2026-10-07 13:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 9, 'player-00000007', 654, '2026-10-12 18:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 10, 'bob', 650, '2026-10-21 09:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 11, 'sybil', 444, '2026-10-31 23:59:59.999999+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 12, 'rupert', 333, '2026-10-20 22:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 13, 'player-00000003', 321, '2026-10-11 17:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 14, 'niaj', 250, '2026-10-14 20:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 15, 'grace', 100, '2026-10-08 14:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 16, 'heidi', 100, '2026-10-08 14:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 17, 'trent', 50, '2026-10-22 09:00:00+00');
INSERT INTO public.final_ranks_2026_10_v3 VALUES ('2026-10-01', 18, 'judy', 0, '2026-10-10 16:00:00+00');


--
-- Data for Name: months; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.months VALUES ('2026-11-01', 'OPEN', '2026-11-25 15:41:00.161787+00', '2026-12-01 00:00:00+00', NULL, NULL, NULL, 0);
INSERT INTO public.months VALUES ('2026-09-01', 'CLOSED', '2026-11-25 15:40:33.82319+00', '2026-10-01 00:00:00+00', '2026-11-25 15:41:00.257047+00', 30, 'be7898b0ff2fe4ab511f27154660677715539e08bafa7b1b280932798ac75e3b', 1);
INSERT INTO public.months VALUES ('2026-10-01', 'CLOSED', '2026-11-25 15:41:00.097588+00', '2026-11-01 00:00:00+00', '2026-11-25 15:41:00.30846+00', 18, '038ae5d000a447c6e6ee77c996539583ba2b7e17b89000bd2222171cb750963b', 3);


--
-- Data for Name: outbox; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.outbox VALUES ('evt_1631f27498a1b46df12c9a14664a05f8', 'month.corrected', '2026-10-01', '{"id":"evt_1631f27498a1b46df12c9a14664a05f8","type":"month.corrected","month":"2026-10","closedAt":"2026-11-25T15:41:00.30846Z","participants":18,"digest":"e0a9ef200b69f2ade27bfbd07dcfec1fa6d8ee4af390ce20683eaf589903963f","top":[{"rank":1,"playerId":"carol","name":"Carol","score":900},{"rank":2,"playerId":"peggy","name":"Peggy","score":900},{"rank":3,"playerId":"alice","name":"Alice A.","score":900},{"rank":4,"playerId":"olivia","name":"Olivia","score":900},{"rank":5,"playerId":"mallory","name":"Mallory","score":800},{"rank":6,"playerId":"frank","name":"山田 太郎","score":700},{"rank":7,"playerId":"erin","name":"Zoë Ærin","score":700},{"rank":8,"playerId":"player-00000007","name":"GoldenGriffin720","score":654},{"rank":9,"playerId":"dave","name":"Dave","score":650},{"rank":10,"playerId":"bob","name":"Bob","score":650},{"rank":11,"playerId":"sybil","name":"Sybil","score":444},{"rank":12,"playerId":"rupert","name":"Rupert","score":333},{"rank":13,"playerId":"player-00000003","name":"Seeded Three","score":321},{"rank":14,"playerId":"niaj","name":"Niaj","score":250},{"rank":15,"playerId":"grace","name":"Grace O''Brien","score":100},{"rank":16,"playerId":"heidi","name":null,"score":100},{"rank":17,"playerId":"trent","name":"Trent","score":50},{"rank":18,"playerId":"judy","name":"Judy","score":0}],"correction":{"id":"1","playerId":"ivan","before":10000,"after":null,"reason":"aimbot: 10000 in one match","at":"2026-11-25T15:41:00.314739Z"}}', '2026-11-25 15:41:00.374504+00', 0, '2026-11-25 15:41:00.374504+00', NULL, NULL);
INSERT INTO public.outbox VALUES ('evt_bc8322cf68ac4d53bbad850f20806e6d', 'month.corrected', '2026-10-01', '{"id":"evt_bc8322cf68ac4d53bbad850f20806e6d","type":"month.corrected","month":"2026-10","closedAt":"2026-11-25T15:41:00.30846Z","participants":18,"digest":"038ae5d000a447c6e6ee77c996539583ba2b7e17b89000bd2222171cb750963b","top":[{"rank":1,"playerId":"carol","name":"Carol","score":900},{"rank":2,"playerId":"peggy","name":"Peggy","score":900},{"rank":3,"playerId":"alice","name":"Alice A.","score":900},{"rank":4,"playerId":"olivia","name":"Olivia","score":900},{"rank":5,"playerId":"mallory","name":"Mallory","score":800},{"rank":6,"playerId":"dave","name":"Dave","score":777},{"rank":7,"playerId":"frank","name":"山田 太郎","score":700},{"rank":8,"playerId":"erin","name":"Zoë Ærin","score":700},{"rank":9,"playerId":"player-00000007","name":"GoldenGriffin720","score":654},{"rank":10,"playerId":"bob","name":"Bob","score":650},{"rank":11,"playerId":"sybil","name":"Sybil","score":444},{"rank":12,"playerId":"rupert","name":"Rupert","score":333},{"rank":13,"playerId":"player-00000003","name":"Seeded Three","score":321},{"rank":14,"playerId":"niaj","name":"Niaj","score":250},{"rank":15,"playerId":"grace","name":"Grace O''Brien","score":100},{"rank":16,"playerId":"heidi","name":null,"score":100},{"rank":17,"playerId":"trent","name":"Trent","score":50},{"rank":18,"playerId":"judy","name":"Judy","score":0}],"correction":{"id":"2","playerId":"dave","before":650,"after":777,"reason":"refund of a match lost to a server crash","at":"2026-11-25T15:41:00.388181Z"}}', '2026-11-25 15:41:00.403208+00', 0, '2026-11-25 15:41:00.403208+00', NULL, NULL);
INSERT INTO public.outbox VALUES ('evt_b39f7fd6b44b1bc22ed88c48ec5c50c8', 'month.closed', '2026-09-01', '{"id":"evt_b39f7fd6b44b1bc22ed88c48ec5c50c8","type":"month.closed","month":"2026-09","closedAt":"2026-11-25T15:41:00.257047064Z","participants":30,"digest":"be7898b0ff2fe4ab511f27154660677715539e08bafa7b1b280932798ac75e3b","top":[{"rank":1,"playerId":"player-00000026","name":"NobleLion104","score":1793},{"rank":2,"playerId":"player-00000016","name":"QuantumBadger875","score":1040},{"rank":3,"playerId":"player-00000018","name":"RapidOtter425","score":955},{"rank":4,"playerId":"player-00000020","name":"FuzzyBlade764","score":928},{"rank":5,"playerId":"player-00000027","name":"PixelYeti999","score":809},{"rank":6,"playerId":"player-00000022","name":"ToxicComet904","score":799},{"rank":7,"playerId":"player-00000004","name":"ThunderJaguar31","score":699},{"rank":8,"playerId":"player-00000014","name":"ArcaneDruid890","score":507},{"rank":9,"playerId":"player-00000002","name":"MightyCoyote936","score":443},{"rank":10,"playerId":"player-00000008","name":"BlazingShark575","score":425},{"rank":11,"playerId":"player-00000007","name":"GoldenGriffin720","score":410},{"rank":12,"playerId":"player-00000009","name":"SilentCobra401","score":366},{"rank":13,"playerId":"player-00000029","name":"HiddenDruid296","score":345},{"rank":14,"playerId":"player-00000001","name":"IronOtter654","score":288},{"rank":15,"playerId":"player-00000030","name":"VelvetGecko897","score":286},{"rank":16,"playerId":"player-00000025","name":"CrimsonBadger425","score":285},{"rank":17,"playerId":"player-00000019","name":"BlazingRocket684","score":280},{"rank":18,"playerId":"player-00000028","name":"GoldenWhale238","score":250},{"rank":19,"playerId":"player-00000013","name":"TurboStallion634","score":239},{"rank":20,"playerId":"player-00000006","name":"QuantumYeti181","score":227},{"rank":21,"playerId":"player-00000012","name":"CrystalViper428","score":216},{"rank":22,"playerId":"player-00000005","name":"NobleDruid635","score":171},{"rank":23,"playerId":"player-00000003","name":"Seeded Three","score":154},{"rank":24,"playerId":"player-00000021","name":"SilentLynx882","score":153},{"rank":25,"playerId":"player-00000017","name":"BlazingBear662","score":100},{"rank":26,"playerId":"player-00000011","name":"EpicBandit125","score":82},{"rank":27,"playerId":"player-00000023","name":"PixelViper185","score":67},{"rank":28,"playerId":"player-00000010","name":"ToxicRocket390","score":51},{"rank":29,"playerId":"player-00000024","name":"FrozenRocket878","score":48},{"rank":30,"playerId":"player-00000015","name":"FuzzyPhoenix394","score":31}]}', '2026-11-25 15:41:00.258516+00', 5, '2026-11-25 15:41:08.896069+00', NULL, 'Post "http://127.0.0.1:1/rewards": dial tcp 127.0.0.1:1: connect: connection refused');
INSERT INTO public.outbox VALUES ('evt_5f0c55c554db15e041116430e54356eb', 'month.closed', '2026-10-01', '{"id":"evt_5f0c55c554db15e041116430e54356eb","type":"month.closed","month":"2026-10","closedAt":"2026-11-25T15:41:00.308460968Z","participants":19,"digest":"5117fb11626ce411b2057406dd60d159db654a04bc5e82cc1ead6791c24683d4","top":[{"rank":1,"playerId":"ivan","name":"Ivan","score":10000},{"rank":2,"playerId":"carol","name":"Carol","score":900},{"rank":3,"playerId":"peggy","name":"Peggy","score":900},{"rank":4,"playerId":"alice","name":"Alice A.","score":900},{"rank":5,"playerId":"olivia","name":"Olivia","score":900},{"rank":6,"playerId":"mallory","name":"Mallory","score":800},{"rank":7,"playerId":"frank","name":"山田 太郎","score":700},{"rank":8,"playerId":"erin","name":"Zoë Ærin","score":700},{"rank":9,"playerId":"player-00000007","name":"GoldenGriffin720","score":654},{"rank":10,"playerId":"dave","name":"Dave","score":650},{"rank":11,"playerId":"bob","name":"Bob","score":650},{"rank":12,"playerId":"sybil","name":"Sybil","score":444},{"rank":13,"playerId":"rupert","name":"Rupert","score":333},{"rank":14,"playerId":"player-00000003","name":"Seeded Three","score":321},{"rank":15,"playerId":"niaj","name":"Niaj","score":250},{"rank":16,"playerId":"grace","name":"Grace O''Brien","score":100},{"rank":17,"playerId":"heidi","name":null,"score":100},{"rank":18,"playerId":"trent","name":"Trent","score":50},{"rank":19,"playerId":"judy","name":"Judy","score":0}]}', '2026-11-25 15:41:00.308909+00', 5, '2026-11-25 15:41:09.006835+00', NULL, 'Post "http://127.0.0.1:1/rewards": dial tcp 127.0.0.1:1: connect: connection refused');


--
-- Data for Name: players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.players VALUES ('player-00000001', 'IronOtter654', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000002', 'MightyCoyote936', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000004', 'ThunderJaguar31', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000005', 'NobleDruid635', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000006', 'QuantumYeti181', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000007', 'GoldenGriffin720', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000008', 'BlazingShark575', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000009', 'SilentCobra401', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000010', 'ToxicRocket390', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000011', 'EpicBandit125', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000012', 'CrystalViper428', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000013', 'TurboStallion634', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000014', 'ArcaneDruid890', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000015', 'FuzzyPhoenix394', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000016', 'QuantumBadger875', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000017', 'BlazingBear662', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000018', 'RapidOtter425', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000019', 'BlazingRocket684', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000020', 'FuzzyBlade764', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000021', 'SilentLynx882', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000022', 'ToxicComet904', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000023', 'PixelViper185', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000024', 'FrozenRocket878', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000025', 'CrimsonBadger425', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000026', 'NobleLion104', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000027', 'PixelYeti999', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000028', 'GoldenWhale238', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000029', 'HiddenDruid296', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('player-00000030', 'VelvetGecko897', '2026-11-25 15:40:33.841962+00');
INSERT INTO public.players VALUES ('bob', 'Bob', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('carol', 'Carol', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('dave', 'Dave', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('erin', 'Zoë Ærin', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('frank', '山田 太郎', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('grace', 'Grace O''Brien', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('heidi', NULL, '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('ivan', 'Ivan', '2026-11-25 15:41:00.128287+00');
INSERT INTO public.players VALUES ('judy', 'Judy', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('mallory', 'Mallory', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('niaj', 'Niaj', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('olivia', 'Olivia', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('peggy', 'Peggy', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('player-00000003', 'Seeded Three', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('rupert', 'Rupert', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('sybil', 'Sybil', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('trent', 'Trent', '2026-11-25 15:41:00.149762+00');
INSERT INTO public.players VALUES ('alice', 'Alice A.', '2026-11-25 15:41:00.196364+00');
INSERT INTO public.players VALUES ('victor', 'Victor', '2026-11-25 15:41:00.196364+00');
INSERT INTO public.players VALUES ('walter', 'Walter', '2026-11-25 15:41:00.196364+00');
INSERT INTO public.players VALUES ('yuki', 'ゆき', '2026-11-25 15:41:00.196364+00');


--
-- Data for Name: removed_players; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.removed_players VALUES ('2026-10-01', 'ivan');


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (6, false);


--
-- Data for Name: score_block_counts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_block_counts VALUES ('2026-09-01', 0, 5);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 1, 4);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 2, 8);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 3, 2);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 4, 3);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 5, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 6, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 7, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 8, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 9, 2);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 10, 1);
INSERT INTO public.score_block_counts VALUES ('2026-09-01', 17, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 1, 2);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 0, 2);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 2, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 3, 2);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 4, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 8, 1);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 9, 4);
INSERT INTO public.score_block_counts VALUES ('2026-11-01', 0, 2);
INSERT INTO public.score_block_counts VALUES ('2026-11-01', 1, 1);
INSERT INTO public.score_block_counts VALUES ('2026-11-01', 3, 2);
INSERT INTO public.score_block_counts VALUES ('2026-11-01', 4, 2);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 100, 0);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 6, 2);
INSERT INTO public.score_block_counts VALUES ('2026-10-01', 7, 3);


--
-- Data for Name: score_counts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_counts VALUES ('2026-09-01', 31, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 48, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 51, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 67, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 82, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 100, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 153, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 154, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 171, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 216, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 227, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 239, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 250, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 280, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 285, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 286, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 288, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 345, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 366, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 410, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 425, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 443, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 507, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 699, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 799, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 809, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 928, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 955, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 1040, 1);
INSERT INTO public.score_counts VALUES ('2026-09-01', 1793, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 100, 2);
INSERT INTO public.score_counts VALUES ('2026-10-01', 0, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 50, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 250, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 321, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 333, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 444, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 654, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 700, 2);
INSERT INTO public.score_counts VALUES ('2026-10-01', 800, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 900, 4);
INSERT INTO public.score_counts VALUES ('2026-11-01', 75, 1);
INSERT INTO public.score_counts VALUES ('2026-11-01', 90, 1);
INSERT INTO public.score_counts VALUES ('2026-11-01', 150, 1);
INSERT INTO public.score_counts VALUES ('2026-11-01', 300, 2);
INSERT INTO public.score_counts VALUES ('2026-11-01', 450, 2);
INSERT INTO public.score_counts VALUES ('2026-10-01', 10000, 0);
INSERT INTO public.score_counts VALUES ('2026-10-01', 650, 1);
INSERT INTO public.score_counts VALUES ('2026-10-01', 777, 1);


--
-- Data for Name: score_events_2026_09; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: score_events_2026_10; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_events_2026_10 VALUES ('oct-01', '2026-10-01', 'alice', 'ADD', 500, '2026-10-02 08:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 500);
INSERT INTO public.score_events_2026_10 VALUES ('oct-02', '2026-10-01', 'bob', 'ADD', 700, '2026-10-02 09:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 700);
INSERT INTO public.score_events_2026_10 VALUES ('oct-03', '2026-10-01', 'carol', 'SET', 900, '2026-10-03 10:00:00.123456+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 900);
INSERT INTO public.score_events_2026_10 VALUES ('oct-04', '2026-10-01', 'alice', 'ADD', 400, '2026-10-04 11:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', 500, 900);
INSERT INTO public.score_events_2026_10 VALUES ('oct-05', '2026-10-01', 'dave', 'BEST', 650, '2026-10-05 12:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 650);
INSERT INTO public.score_events_2026_10 VALUES ('oct-06', '2026-10-01', 'dave', 'BEST', 600, '2026-10-06 12:00:00+00', '2026-11-25 15:41:00.094297+00', 'UNCHANGED', 650, 650);
INSERT INTO public.score_events_2026_10 VALUES ('oct-07', '2026-10-01', 'erin', 'SET', 700, '2026-10-07 13:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 700);
INSERT INTO public.score_events_2026_10 VALUES ('oct-08', '2026-10-01', 'frank', 'ADD', 700, '2026-10-02 09:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 700);
INSERT INTO public.score_events_2026_10 VALUES ('oct-09', '2026-10-01', 'grace', 'ADD', 100, '2026-10-08 14:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 100);
INSERT INTO public.score_events_2026_10 VALUES ('oct-10', '2026-10-01', 'heidi', 'ADD', 100, '2026-10-08 14:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 100);
INSERT INTO public.score_events_2026_10 VALUES ('oct-11', '2026-10-01', 'ivan', 'SET', 10000, '2026-10-09 15:00:00+00', '2026-11-25 15:41:00.094297+00', 'APPLIED', NULL, 10000);
INSERT INTO public.score_events_2026_10 VALUES ('oct-12', '2026-10-01', 'judy', 'SET', 0, '2026-10-10 16:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 0);
INSERT INTO public.score_events_2026_10 VALUES ('oct-13', '2026-10-01', 'player-00000003', 'ADD', 321, '2026-10-11 17:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 321);
INSERT INTO public.score_events_2026_10 VALUES ('oct-14', '2026-10-01', 'player-00000007', 'ADD', 654, '2026-10-12 18:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 654);
INSERT INTO public.score_events_2026_10 VALUES ('oct-15', '2026-10-01', 'mallory', 'ADD', 800, '2026-10-13 19:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 800);
INSERT INTO public.score_events_2026_10 VALUES ('oct-16', '2026-10-01', 'niaj', 'ADD', 250, '2026-10-14 20:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 250);
INSERT INTO public.score_events_2026_10 VALUES ('oct-17', '2026-10-01', 'olivia', 'BEST', 900, '2026-10-15 21:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 900);
INSERT INTO public.score_events_2026_10 VALUES ('oct-18', '2026-10-01', 'peggy', 'ADD', 900, '2026-10-03 10:00:00.123456+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 900);
INSERT INTO public.score_events_2026_10 VALUES ('oct-19', '2026-10-01', 'rupert', 'ADD', 333, '2026-10-20 22:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 333);
INSERT INTO public.score_events_2026_10 VALUES ('oct-20', '2026-10-01', 'sybil', 'ADD', 444, '2026-10-31 23:59:59.999999+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 444);
INSERT INTO public.score_events_2026_10 VALUES ('oct-21', '2026-10-01', 'bob', 'ADD', -50, '2026-10-21 09:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', 700, 650);
INSERT INTO public.score_events_2026_10 VALUES ('oct-22', '2026-10-01', 'trent', 'ADD', 50, '2026-10-22 09:00:00+00', '2026-11-25 15:41:00.149611+00', 'APPLIED', NULL, 50);


--
-- Data for Name: score_events_2026_11; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_events_2026_11 VALUES ('nov-01', '2026-11-01', 'alice', 'ADD', 120, '2026-11-02 08:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 120);
INSERT INTO public.score_events_2026_11 VALUES ('nov-02', '2026-11-01', 'bob', 'SET', 300, '2026-11-03 09:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 300);
INSERT INTO public.score_events_2026_11 VALUES ('nov-03', '2026-11-01', 'victor', 'ADD', 300, '2026-11-03 09:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 300);
INSERT INTO public.score_events_2026_11 VALUES ('nov-04', '2026-11-01', 'walter', 'BEST', 450, '2026-11-05 10:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 450);
INSERT INTO public.score_events_2026_11 VALUES ('nov-05', '2026-11-01', 'carol', 'ADD', 90, '2026-11-06 11:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 90);
INSERT INTO public.score_events_2026_11 VALUES ('nov-06', '2026-11-01', 'player-00000003', 'ADD', 75, '2026-11-07 12:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 75);
INSERT INTO public.score_events_2026_11 VALUES ('nov-07', '2026-11-01', 'yuki', 'SET', 450, '2026-11-08 13:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', NULL, 450);
INSERT INTO public.score_events_2026_11 VALUES ('nov-08', '2026-11-01', 'alice', 'ADD', 30, '2026-11-09 14:00:00+00', '2026-11-25 15:41:00.160818+00', 'APPLIED', 120, 150);


--
-- Data for Name: score_hour_counts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 31, 497400, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 48, 497391, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 51, 497192, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 67, 496908, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 82, 497262, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 100, 497028, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 153, 497020, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 154, 496791, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 171, 496979, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 216, 497017, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 227, 496799, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 239, 497084, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 250, 497360, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 280, 497123, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 285, 497426, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 286, 496994, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 288, 496816, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 345, 497045, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 366, 496807, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 410, 497322, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 425, 497213, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 443, 496901, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 507, 497072, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 699, 497280, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 799, 496751, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 809, 496797, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 928, 497150, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 955, 497162, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 1040, 497252, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-09-01', 1793, 497402, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 100, 497630, 2);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 700, 497605, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 900, 497531, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 0, 497680, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 50, 497961, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 250, 497780, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 321, 497705, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 333, 497926, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 444, 498191, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 650, 497937, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 654, 497730, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 700, 497481, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 800, 497755, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 900, 497506, 2);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 900, 497805, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-11-01', 75, 498348, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-11-01', 90, 498323, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-11-01', 150, 498398, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-11-01', 300, 498249, 2);
INSERT INTO public.score_hour_counts VALUES ('2026-11-01', 450, 498298, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-11-01', 450, 498373, 1);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 10000, 497655, 0);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 650, 497556, 0);
INSERT INTO public.score_hour_counts VALUES ('2026-10-01', 777, 498783, 1);


--
-- Data for Name: scores_2026_09; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000001', 288, '2026-09-04 16:42:00+00', 1);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000002', 443, '2026-09-08 05:12:00+00', 2);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000003', 154, '2026-09-03 15:05:00+00', 3);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000004', 699, '2026-09-24 00:03:00+00', 4);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000005', 171, '2026-09-11 11:01:00+00', 5);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000006', 227, '2026-09-03 23:57:00+00', 6);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000007', 410, '2026-09-25 18:17:00+00', 7);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000008', 425, '2026-09-21 05:10:00+00', 8);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000009', 366, '2026-09-04 07:39:00+00', 9);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000010', 51, '2026-09-20 08:13:00+00', 10);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000011', 82, '2026-09-23 06:39:00+00', 11);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000012', 216, '2026-09-13 01:38:00+00', 12);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000013', 239, '2026-09-15 20:02:00+00', 13);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000014', 507, '2026-09-15 08:20:00+00', 14);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000015', 31, '2026-09-29 00:13:00+00', 15);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000016', 1040, '2026-09-22 20:52:00+00', 16);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000017', 100, '2026-09-13 12:46:00+00', 17);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000018', 955, '2026-09-19 02:13:00+00', 18);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000019', 280, '2026-09-17 11:13:00+00', 19);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000020', 928, '2026-09-18 14:15:00+00', 20);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000021', 153, '2026-09-13 04:02:00+00', 21);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000022', 799, '2026-09-01 23:40:00+00', 22);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000023', 67, '2026-09-08 12:13:00+00', 23);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000024', 48, '2026-09-28 15:32:00+00', 24);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000025', 285, '2026-09-30 02:48:00+00', 25);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000026', 1793, '2026-09-29 02:52:00+00', 26);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000027', 809, '2026-09-03 21:13:00+00', 27);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000028', 250, '2026-09-27 08:56:00+00', 28);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000029', 345, '2026-09-14 05:21:00+00', 29);
INSERT INTO public.scores_2026_09 VALUES ('2026-09-01', 'player-00000030', 286, '2026-09-12 02:29:00+00', 30);


--
-- Data for Name: scores_2026_10; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'alice', 900, '2026-10-04 11:00:00+00', 44);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'dave', 777, '2026-11-25 15:41:00.388181+00', 80);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'carol', 900, '2026-10-03 10:00:00.123456+00', 43);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'erin', 700, '2026-10-07 13:00:00+00', 46);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'frank', 700, '2026-10-02 09:00:00+00', 47);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'grace', 100, '2026-10-08 14:00:00+00', 48);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'heidi', 100, '2026-10-08 14:00:00+00', 49);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'judy', 0, '2026-10-10 16:00:00+00', 53);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'mallory', 800, '2026-10-13 19:00:00+00', 56);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'niaj', 250, '2026-10-14 20:00:00+00', 57);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'olivia', 900, '2026-10-15 21:00:00+00', 58);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'peggy', 900, '2026-10-03 10:00:00.123456+00', 59);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'player-00000003', 321, '2026-10-11 17:00:00+00', 54);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'player-00000007', 654, '2026-10-12 18:00:00+00', 55);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'rupert', 333, '2026-10-20 22:00:00+00', 60);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'sybil', 444, '2026-10-31 23:59:59.999999+00', 61);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'trent', 50, '2026-10-22 09:00:00+00', 63);
INSERT INTO public.scores_2026_10 VALUES ('2026-10-01', 'bob', 650, '2026-10-21 09:00:00+00', 62);


--
-- Data for Name: scores_2026_11; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'alice', 150, '2026-11-09 14:00:00+00', 78);
INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'bob', 300, '2026-11-03 09:00:00+00', 72);
INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'carol', 90, '2026-11-06 11:00:00+00', 75);
INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'player-00000003', 75, '2026-11-07 12:00:00+00', 76);
INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'victor', 300, '2026-11-03 09:00:00+00', 73);
INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'walter', 450, '2026-11-05 10:00:00+00', 74);
INSERT INTO public.scores_2026_11 VALUES ('2026-11-01', 'yuki', 450, '2026-11-08 13:00:00+00', 77);


--
-- Name: corrections_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.corrections_id_seq', 2, true);


--
-- Name: score_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.score_seq', 80, true);


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
-- Name: final_ranks_2026_09_v1 final_ranks_2026_09_v1_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks_2026_09_v1
    ADD CONSTRAINT final_ranks_2026_09_v1_pkey PRIMARY KEY (month, rank);


--
-- Name: final_ranks_2026_10_v3 final_ranks_2026_10_v3_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.final_ranks_2026_10_v3
    ADD CONSTRAINT final_ranks_2026_10_v3_pkey PRIMARY KEY (month, rank);


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
-- Name: score_events_2026_11 score_events_2026_11_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.score_events_2026_11
    ADD CONSTRAINT score_events_2026_11_pkey PRIMARY KEY (event_id, month);


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
-- Name: scores_2026_11 scores_2026_11_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores_2026_11
    ADD CONSTRAINT scores_2026_11_pkey PRIMARY KEY (month, player_id);


--
-- Name: corrections_month_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX corrections_month_idx ON public.corrections USING btree (month, id);


--
-- Name: outbox_month_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX outbox_month_idx ON public.outbox USING btree (month, created_at);


--
-- Name: outbox_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX outbox_pending_idx ON public.outbox USING btree (next_attempt_at) WHERE (delivered_at IS NULL);


--
-- Name: scores_rank_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_rank_idx ON ONLY public.scores USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: scores_2026_09_score_reached_at_seq_player_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_2026_09_score_reached_at_seq_player_id_idx ON public.scores_2026_09 USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: scores_2026_10_score_reached_at_seq_player_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_2026_10_score_reached_at_seq_player_id_idx ON public.scores_2026_10 USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: scores_2026_11_score_reached_at_seq_player_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scores_2026_11_score_reached_at_seq_player_id_idx ON public.scores_2026_11 USING btree (score DESC, reached_at, seq) INCLUDE (player_id);


--
-- Name: final_ranks_2026_09_v1_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.final_ranks_pkey ATTACH PARTITION public.final_ranks_2026_09_v1_pkey;


--
-- Name: final_ranks_2026_10_v3_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.final_ranks_pkey ATTACH PARTITION public.final_ranks_2026_10_v3_pkey;


--
-- Name: score_events_2026_09_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.score_events_pkey ATTACH PARTITION public.score_events_2026_09_pkey;


--
-- Name: score_events_2026_10_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.score_events_pkey ATTACH PARTITION public.score_events_2026_10_pkey;


--
-- Name: score_events_2026_11_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.score_events_pkey ATTACH PARTITION public.score_events_2026_11_pkey;


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
-- Name: scores_2026_11_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_pkey ATTACH PARTITION public.scores_2026_11_pkey;


--
-- Name: scores_2026_11_score_reached_at_seq_player_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.scores_rank_idx ATTACH PARTITION public.scores_2026_11_score_reached_at_seq_player_id_idx;


--
-- Name: corrections corrections_month_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections
    ADD CONSTRAINT corrections_month_fkey FOREIGN KEY (month) REFERENCES public.months(month) ON DELETE CASCADE;


--
-- Name: outbox outbox_month_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.outbox
    ADD CONSTRAINT outbox_month_fkey FOREIGN KEY (month) REFERENCES public.months(month) ON DELETE CASCADE;


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

\unrestrict bJG3YVYjgInySmQbb7xMWL1cBt0sm5ZsAxkHRbnLlnpDh0KxggVmKK7B8GiKEnF

