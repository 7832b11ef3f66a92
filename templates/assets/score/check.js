// Whether a round's scores can happen: the engine's check_round
// (site_builder/engine/scoring.py), step for step, on the numbers the build computed from
// the engine for this rule set (site_builder/render/score.py: bounds). No rule number is
// written here; tests/test_score_js.py proves that this refuses exactly what the engine
// refuses, with the same code and values.

const problem = (code, values = {}) => ({ code, values });

// A Rami round (penalty scoring): one winner on 0, every other hand between its cheapest
// card and the dearest cards its size can hold, any hands together within the decks.
const penaltyProblem = (scores, rules, cards, most) => {
  const fixed = rules.fixed;
  const zeros = [];
  scores.forEach((score, i) => { if (score === 0) zeros.push(i + 1); });
  if (zeros.length === 0) return problem("no_winner");
  if (zeros.length > 1 && fixed !== 0) return problem("winners", { seats: zeros });
  const counted = [];
  scores.forEach((score, i) => {
    if (i + 1 !== zeros[0] && score !== fixed) counted.push([i + 1, score]);
  });
  for (const [seat, score] of counted) {
    if (score < rules.least) return problem("hand_low", { seat, score, least: rules.least });
    if (score > most[0]) return problem("hand_high", { seat, score, cards, most: most[0] });
  }
  const dearest = [...counted].sort((a, b) => b[1] - a[1]);
  for (let size = 2; size <= dearest.length; size++) {
    const seats = dearest.slice(0, size).map(([seat]) => seat).sort((a, b) => a - b);
    const total = dearest.slice(0, size).reduce((sum, [, score]) => sum + score, 0);
    if (total > most[size - 1]) {
      return problem("hands_high", { seats, total, cards: size * cards, most: most[size - 1] });
    }
  }
  return null;
};

// A CardVerse round: only the winner scores, the points left in the other hands.
const gainProblem = (scores, rules, cards, most, leastGain) => {
  const scoring = [];
  scores.forEach((score, i) => { if (score) scoring.push(i + 1); });
  if (scoring.length === 0) return problem("no_gain");
  if (scoring.length > 1) return problem("gainers", { seats: scoring });
  const seat = scoring[0];
  const others = scores.length - 1;
  const gain = scores[seat - 1];
  if (gain < leastGain) {
    return problem("gain_low", { seat, score: gain, cards: others, least: leastGain });
  }
  if (gain > most[others - 1]) {
    return problem("gain_high", { seat, score: gain, cards: others * cards,
                                  most: most[others - 1] });
  }
  return null;
};

// Why one round's scores (one a seat, seats counted from 1) cannot happen, or null.
export const checkRound = (scores, rules) => {
  const players = scores.length;
  if (players < rules.min || players > rules.max) {
    return problem("players", { players, min: rules.min, max: rules.max });
  }
  for (let i = 0; i < players; i++) {
    if (scores[i] < 0) return problem("negative", { seat: i + 1, score: scores[i] });
  }
  const { cards, most, least_gain: leastGain } = rules.players[String(players)];
  return rules.lowest_wins ? penaltyProblem(scores, rules, cards, most)
    : gainProblem(scores, rules, cards, most, leastGain);
};

// The running totals, whether the game is over (a total has reached the limit), and the
// seats (from 0) that win it: the lowest total in Rami, the highest in CardVerse; a tie
// shares the win (the engine's game_over and game_winners).
export const standing = (rounds, players, rules) => {
  const totals = Array.from({ length: players }, (_, i) =>
    rounds.reduce((sum, round) => sum + round[i], 0));
  const over = rounds.length > 0 && Math.max(...totals) >= rules.target;
  const best = rules.lowest_wins ? Math.min(...totals) : Math.max(...totals);
  const winners = over ? totals.flatMap((t, i) => (t === best ? [i] : [])) : [];
  const reached = totals.flatMap((t, i) => (t >= rules.target ? [i] : []));
  return { totals, over, winners, reached };
};
