/**
 * Text and JSON shapes of memories and recall hits for the terminal. JSON shapes are part of the
 * CLI's contract (docs/cli.md).
 */
import type { Memory, RecallHit } from '../core/types.js';

const round = (value: number) => Math.round(value * 1000) / 1000;

export function hitJson(hit: RecallHit, rank: number) {
  const m = hit.memory;
  return {
    rank,
    id: m.id,
    level: m.level,
    title: m.title,
    description: m.description,
    content: m.content,
    tags: m.tags,
    lesson: m.lesson,
    routines: m.routines,
    facet: m.facet,
    examples: m.examples,
    writer: m.writer,
    evidence: m.evidence,
    score: round(hit.score),
    parts: Object.fromEntries(Object.entries(hit.parts).map(([key, value]) => [key, round(value)])),
    transferred: hit.transferred,
    status: m.status,
    support: m.support,
    votes: m.votes,
    provenance: m.provenance,
  };
}

export function hitText(hit: RecallHit, rank: number): string {
  const m = hit.memory;
  const origin = m.provenance[0];
  const count = m.provenanceCount ?? m.provenance.length;
  const sources = count > 1 ? ` +${count - 1} more` : '';
  const lines = [
    `${rank}. ${m.title}`,
    `   ${m.description}`,
    ...wrap(m.content, 90).map((line) => `   ${line}`),
    `   ${m.id} · score ${hit.score.toFixed(3)} · support ${m.support} · from ${origin?.repo ?? '?'}${sources}` +
      (hit.transferred ? ' (transferred)' : ''),
  ];
  return lines.join('\n');
}

export function memoryRow(m: Memory): string {
  const repo = m.provenance[0]?.repo ?? '?';
  return [
    m.id,
    m.level.padEnd(10),
    m.status.padEnd(8),
    String(m.support).padStart(3),
    repo.padEnd(24),
    truncate(m.title, 70),
  ].join('  ');
}

export function memoryText(m: Memory): string {
  const lines = [
    `${m.id}  ${m.level} · ${m.status} · ${m.visibility} · support ${m.support} · votes +${m.votes.up}/-${m.votes.down} · uses ${m.uses}`,
    '',
    m.title,
    m.description,
    '',
    // a trajectory is a record (its diff excerpt keeps its lines and indentation); the rest is prose
    ...(m.level === 'trajectory' ? m.content.split('\n') : wrap(m.content, 100)),
    '',
  ];
  if (m.tags.length > 0) lines.push(`tags: ${m.tags.join(', ')}`);
  if (m.evidence.length > 0) lines.push('evidence:', ...m.evidence.map((e) => `  - ${e}`));
  lines.push('sources:');
  for (const p of m.provenance) {
    lines.push(
      `  - ${p.repo} ${p.sourceKind} ${p.ref.slice(0, 12)} (${p.visibility}, ${p.date.slice(0, 10)})${p.url ? ` ${p.url}` : ''}`,
    );
  }
  lines.push(`model: ${m.model} · created ${m.createdAt} · updated ${m.updatedAt}`);
  return lines.join('\n');
}

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + word.length + 1 > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}
