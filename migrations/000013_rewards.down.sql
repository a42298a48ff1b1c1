DROP INDEX periods_closed_ended_idx;
DROP FUNCTION claim_board_reward(TEXT, TEXT, TEXT, TEXT, TIMESTAMPTZ);
